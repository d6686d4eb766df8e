// <Connect><ConversationRelay>: the caller's speech goes to the app as text prompts and the app's text is spoken back, until either side ends it.
import { boolAttr, methodAttr } from "../attrs.js";
import {
  CallEnded,
  type RelayControl,
  type RelaySpec,
  type VerbEnv,
  type VerbRun,
  type Wake,
} from "../effects.js";
import type { MarkupNode } from "../parse.js";

/** `interruptible` and `welcomeGreetingInterruptible`: any, speech (or true) let the caller's speech cut in. */
const speechInterrupts = (value: string | undefined) =>
  value === undefined || /^(any|speech|true)$/i.test(value);

export function readRelayNoun(noun: MarkupNode, env: VerbEnv): RelaySpec {
  const parameters: Record<string, string> = {};
  for (const child of noun.children) {
    if (child.name === "Parameter" && child.attrs.name !== undefined) {
      parameters[child.attrs.name] = child.attrs.value ?? "";
    }
  }
  const language = noun.attrs.language ?? "en-US";
  return {
    url: env.resolve(noun.attrs.url ?? ""),
    welcomeGreeting: noun.attrs.welcomeGreeting ?? null,
    welcomeGreetingInterruptible: speechInterrupts(noun.attrs.welcomeGreetingInterruptible),
    interruptible: speechInterrupts(noun.attrs.interruptible),
    dtmfDetection: boolAttr(noun, "dtmfDetection", false),
    ttsLanguage: noun.attrs.ttsLanguage ?? language,
    transcriptionLanguage: noun.attrs.transcriptionLanguage ?? language,
    voice: noun.attrs.voice ?? "",
    parameters,
  };
}

/** What the Connect action is told of the session (Twilio's parameters). */
function sessionParams(session: RelayControl): Record<string, string> {
  const result = session.result();
  const params: Record<string, string> = {
    SessionId: session.sessionId,
    SessionStatus: result.status,
    SessionDuration: String(result.durationSeconds),
  };
  if (result.handoffData !== null) params.HandoffData = result.handoffData;
  if (result.errorCode !== undefined) params.ErrorCode = String(result.errorCode);
  if (result.errorMessage !== undefined) params.ErrorMessage = result.errorMessage;
  return params;
}

export function* conversationRelay(node: MarkupNode, noun: MarkupNode, env: VerbEnv): VerbRun {
  const session = env.openRelay(readRelayNoun(noun, env));
  const action = node.attrs.action ? env.resolve(node.attrs.action) : null;
  try {
    while (!session.ended()) {
      const wake = (yield {
        type: "wait",
        ms: null,
        wake: ["dtmf", "speech", "speech-start", "signal"],
      }) as Wake;
      if (wake.kind === "speech") session.prompt(wake.text);
      else if (wake.kind === "speech-start") session.speechStarted();
      else if (wake.kind === "dtmf") session.dtmf(wake.digit);
    }
  } catch (error) {
    session.stop();
    // The caller hung up mid-session: the action is still requested, for the record only (its answer is ignored).
    if (error instanceof CallEnded && action) {
      yield {
        type: "fetch",
        url: action,
        method: methodAttr(node),
        params: env.actionParams(sessionParams(session)),
      };
    }
    throw error;
  } finally {
    // The call ended or was redirected during the session: the socket closes.
    session.stop();
  }
  if (!action) return { type: "next" };
  return {
    type: "navigate",
    to: { kind: "url", url: action, method: methodAttr(node), params: sessionParams(session) },
  };
}
