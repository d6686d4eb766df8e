// <Start><Stream> forks the call's audio to the app's WebSocket and goes straight on; <Stop><Stream name> ends it.
import type { Outcome, VerbEnv } from "../effects.js";
import type { MarkupNode } from "../parse.js";
import { readStreamNoun } from "../stream-noun.js";

const skipped = (env: VerbEnv, verb: string, noun: MarkupNode) =>
  env.alert(12200, `<${verb}><${noun.name}> is not emulated by the sandbox and was skipped`, "warning");

export function start(node: MarkupNode, env: VerbEnv): Outcome {
  for (const noun of node.children) {
    if (noun.name !== "Stream") {
      skipped(env, "Start", noun);
      continue;
    }
    // Twilio sets the stream up and runs the next verb at once, without waiting for the socket.
    if (!env.openStream(readStreamNoun(noun, env, false))) {
      env.alert(
        12200,
        "<Start><Stream>: the call already runs four streams, the most Twilio allows; this one was not started",
        "warning",
      );
    }
  }
  return { type: "next" };
}

export function stop(node: MarkupNode, env: VerbEnv): Outcome {
  for (const noun of node.children) {
    if (noun.name !== "Stream") {
      skipped(env, "Stop", noun);
      continue;
    }
    const name = noun.attrs.name ?? null;
    // An unknown name stops nothing; Twilio goes on as well.
    if (!env.stopStreams(name)) env.timeline("stream.stop-unknown", { name });
  }
  return { type: "next" };
}
