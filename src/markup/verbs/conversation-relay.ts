// <Connect><ConversationRelay>: the caller's speech goes to the app as text prompts and the app's text is spoken back, until either side ends it.
import { boolAttr, methodAttr } from "../attrs.js";
import {
  CallEnded,
  type RelayControl,
  type RelayInputs,
  type RelayLanguage,
  type RelaySpec,
  type VerbEnv,
  type VerbRun,
  type Wake,
} from "../effects.js";
import type { MarkupNode } from "../parse.js";

/**
 * `interruptible`, `welcomeGreetingInterruptible`, `reportInputDuringAgentSpeech`: none, dtmf, speech or any
 * (true is any, false none, as Twilio reads booleans); an unknown value keeps the default.
 */
export function relayInputs(value: string | undefined, fallback: RelayInputs): RelayInputs {
  switch (value?.trim().toLowerCase()) {
    case "any":
    case "true":
      return { speech: true, dtmf: true };
    case "speech":
      return { speech: true, dtmf: false };
    case "dtmf":
      return { speech: false, dtmf: true };
    case "none":
    case "false":
      return { speech: false, dtmf: false };
    default:
      return fallback;
  }
}

const anyInput: RelayInputs = { speech: true, dtmf: true };
const noInput: RelayInputs = { speech: false, dtmf: false };

export function readRelayNoun(noun: MarkupNode, env: VerbEnv): RelaySpec {
  const parameters: Record<string, string> = {};
  const languages: Record<string, RelayLanguage> = {};
  for (const child of noun.children) {
    if (child.name === "Parameter" && child.attrs.name !== undefined) {
      parameters[child.attrs.name] = child.attrs.value ?? "";
    }
    if (child.name === "Language" && child.attrs.code) {
      const { ttsProvider, voice, transcriptionProvider, speechModel } = child.attrs;
      languages[child.attrs.code] = {
        ...(ttsProvider ? { ttsProvider } : {}),
        ...(voice ? { voice } : {}),
        ...(transcriptionProvider ? { transcriptionProvider } : {}),
        ...(speechModel ? { speechModel } : {}),
      };
    }
  }
  const language = noun.attrs.language ?? "en-US";
  const interruptible = relayInputs(noun.attrs.interruptible, anyInput);
  return {
    url: env.resolve(noun.attrs.url ?? ""),
    welcomeGreeting: noun.attrs.welcomeGreeting ?? null,
    welcomeGreetingInterruptible: relayInputs(noun.attrs.welcomeGreetingInterruptible, anyInput),
    interruptible,
    reportInputDuringAgentSpeech: relayInputs(noun.attrs.reportInputDuringAgentSpeech, noInput),
    preemptible: boolAttr(noun, "preemptible", false),
    dtmfDetection: boolAttr(noun, "dtmfDetection", false),
    ttsLanguage: noun.attrs.ttsLanguage ?? language,
    transcriptionLanguage: noun.attrs.transcriptionLanguage ?? language,
    ttsProvider: noun.attrs.ttsProvider ?? "",
    voice: noun.attrs.voice ?? "",
    transcriptionProvider: noun.attrs.transcriptionProvider ?? "",
    speechModel: noun.attrs.speechModel ?? "",
    hints: (noun.attrs.hints ?? "")
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean),
    languages,
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
