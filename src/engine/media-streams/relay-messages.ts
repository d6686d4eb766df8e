// What a ConversationRelay app sends, by type: text tokens gathered into utterances, audio, digits, a language change, the end.
import type { RelayInputs } from "../../markup/effects.js";
import { type RelayAppMessage, readRelayMessage } from "./relay-protocol.js";
import { enqueueSpeech } from "./relay-speech.js";
import {
  closeRelaySocket,
  finishRelay,
  type RelayState,
  refuseRelayMessage,
  relayAppSpoke,
  runRelayChecks,
} from "./relay-state.js";
import { sttFor, ttsFor } from "./relay-voices.js";

/** Text tokens kept for one utterance before it is spoken anyway (an app that never sends `last`). */
export const maxPendingTextChars = 16 * 1024;

const never: RelayInputs = { speech: false, dtmf: false };
/** A message's `interruptible`: a boolean (true any, false none) or none/dtmf/speech/any. */
const inputsOf = (value: boolean | string | undefined, fallback: RelayInputs): RelayInputs => {
  if (value === undefined) return fallback;
  const v = String(value);
  if (v === "true" || v === "any") return { speech: true, dtmf: true };
  if (v === "speech") return { speech: true, dtmf: false };
  if (v === "dtmf") return { speech: false, dtmf: true };
  return never;
};

/** The tokens gathered so far become one utterance to say. */
function flushText(r: RelayState): void {
  const text = r.pending.join("").trim();
  const options = r.pendingOptions;
  r.pending = [];
  r.pendingChars = 0;
  r.pendingOptions = {};
  if (text === "") return;
  enqueueSpeech(r, {
    kind: "say",
    text,
    language: options.lang ?? r.ttsLanguage,
    interruptible: inputsOf(options.interruptible, r.spec.interruptible),
    preemptible: options.preemptible ?? r.spec.preemptible,
  });
}

/** `text`: a token of an utterance, said once its `last` token came (or too many gathered). */
function gatherText(r: RelayState, message: Extract<RelayAppMessage, { type: "text" }>): void {
  r.pending.push(message.token);
  r.pendingChars += message.token.length;
  if (message.lang !== undefined) r.pendingOptions.lang = message.lang;
  if (message.interruptible !== undefined) r.pendingOptions.interruptible = message.interruptible;
  if (message.preemptible !== undefined) r.pendingOptions.preemptible = message.preemptible;
  if (message.last || r.pendingChars > maxPendingTextChars) flushText(r);
}

/** `play`: audio from a URL, looped. */
function queuePlay(r: RelayState, message: Extract<RelayAppMessage, { type: "play" }>): void {
  enqueueSpeech(r, {
    kind: "play",
    url: message.source,
    loops: message.loop === 0 ? 1 : (message.loop ?? 1),
    interruptible: inputsOf(message.interruptible, r.spec.interruptible),
    preemptible: message.preemptible ?? r.spec.preemptible,
  });
}

/** `language`: speech and recognition switch language. */
function changeLanguage(r: RelayState, message: Extract<RelayAppMessage, { type: "language" }>): void {
  r.ttsLanguage = message.ttsLanguage ?? r.ttsLanguage;
  r.transcriptionLanguage = message.transcriptionLanguage ?? r.transcriptionLanguage;
  // The voice and recogniser follow the language: its nested <Language>, else the noun's own.
  r.host.timeline("relay.language", {
    ttsLanguage: r.ttsLanguage,
    transcriptionLanguage: r.transcriptionLanguage,
    ...ttsFor(r.spec, r.ttsLanguage),
    ...sttFor(r.spec, r.transcriptionLanguage),
  });
}

/** `end`: the app hands the call back, with its handoff data. */
function endByApp(r: RelayState, message: Extract<RelayAppMessage, { type: "end" }>): void {
  r.host.timeline("relay.end", { handoffData: message.handoffData ?? null });
  closeRelaySocket(r);
  finishRelay(r, "ended", { handoffData: message.handoffData ?? null });
}

function applyRelayMessage(r: RelayState, message: RelayAppMessage): void {
  // The agent's first words, audio or keys after the caller's turn: its response (the speech follows).
  if (message.type === "text" || message.type === "play" || message.type === "sendDigits")
    r.conversation?.respond(r.host.now());
  switch (message.type) {
    case "text":
      gatherText(r, message);
      return;
    case "play":
      queuePlay(r, message);
      return;
    case "sendDigits":
      enqueueSpeech(r, { kind: "digits", digits: message.digits });
      return;
    case "language":
      changeLanguage(r, message);
      return;
    case "end":
      endByApp(r, message);
      return;
  }
}

/** A frame from the app (`null` for a binary one): applied, or refused; the waiting checks look again. */
export function onRelayMessage(r: RelayState, text: string | null): void {
  if (r.state !== "open") return;
  r.received++;
  relayAppSpoke(r);
  if (text === null) refuseRelayMessage(r, "Invalid message received: a binary frame");
  else {
    const read = readRelayMessage(text);
    if ("error" in read) refuseRelayMessage(r, read.error);
    else applyRelayMessage(r, read.message);
  }
  runRelayChecks(r);
}
