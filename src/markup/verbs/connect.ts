// <Connect><Stream>: the call's audio goes both ways over the app's WebSocket until the app closes it; then `action` or the next verb.
import { methodAttr } from "../attrs.js";
import type { VerbEnv, VerbRun, Wake } from "../effects.js";
import type { MarkupNode } from "../parse.js";
import { readStreamNoun } from "../stream-noun.js";
import { conversationRelay } from "./conversation-relay.js";

export function* connect(node: MarkupNode, env: VerbEnv): VerbRun {
  const noun = node.children[0];
  if (noun?.name === "ConversationRelay") return yield* conversationRelay(node, noun, env);
  if (noun?.name !== "Stream") {
    env.alert(
      12200,
      `<Connect><${noun?.name ?? ""}> is not emulated by the sandbox and was skipped`,
      "warning",
    );
    return { type: "next" };
  }
  const stream = env.openStream(readStreamNoun(noun, env, true));
  if (!stream) return { type: "next" };
  try {
    // Twilio runs nothing after <Connect><Stream> until the app closes the socket.
    while (!stream.ended()) {
      const wake = (yield {
        type: "wait",
        ms: null,
        wake: ["dtmf", "signal", "speech", "speech-start"],
      }) as Wake;
      if (wake.kind === "dtmf") stream.dtmf(wake.digit);
    }
  } finally {
    // The call ended or was redirected while streaming: the app gets `stop` and the socket closes.
    stream.stop();
  }
  if (!node.attrs.action) return { type: "next" };
  return {
    type: "navigate",
    to: { kind: "url", url: env.resolve(node.attrs.action), method: methodAttr(node) },
  };
}
