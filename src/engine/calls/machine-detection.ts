// Answering machine detection: what the detector concludes from the answering party's greeting, and when.
import type { AnsweredBy, MachineDetectionOptions } from "../../domain/call.js";
import type { PartyBehaviour, PartyKind } from "./party-behaviour.js";

/** Twilio's defaults for the tuning parameters; synchronous, with no callback. */
export const defaultMachineDetection: MachineDetectionOptions = {
  timeout: 30,
  speech_threshold: 2400,
  speech_end_threshold: 1200,
  silence_timeout: 5000,
  async: false,
  async_callback: null,
  async_callback_method: "POST",
};

/** How long each kind of party speaks when it answers, when its script does not say. */
export const defaultGreetingMs: Record<PartyKind, number> = { person: 1000, machine: 10_000, fax: 0 };
/** A fax machine's calling tone is recognised this long after it answers. */
export const faxToneMs = 2000;
/** The beep that ends a machine's greeting lasts this long; detection answers when it ends. */
export const beepMs = 500;

export interface Detection {
  answeredBy: AnsweredBy;
  /** Milliseconds from answer to the result (MachineDetectionDuration). */
  ms: number;
}

/**
 * The detector's result for a party, as Twilio describes its measure: the party speaks from the moment it
 * answers; speech shorter than the speech threshold, ended by the end threshold of silence, is a person;
 * longer speech is a machine (Enable answers there; DetectMessageEnd waits for the beep, or for the end
 * threshold of silence after the greeting). Silence for the silence timeout is `unknown`; so is anything
 * undecided at the timeout, except a machine whose greeting is still going (`machine_end_other`).
 */
export function detectAnswerer(
  mode: "Enable" | "DetectMessageEnd",
  options: MachineDetectionOptions,
  party: Pick<PartyBehaviour, "kind" | "greeting" | "beep">,
): Detection {
  const limit = options.timeout * 1000;
  const by = (answeredBy: AnsweredBy, ms: number): Detection =>
    ms <= limit ? { answeredBy, ms } : { answeredBy: "unknown", ms: limit };
  if (party.kind === "fax") return by("fax", faxToneMs);
  const greeting = party.greeting ?? defaultGreetingMs[party.kind];
  if (greeting === 0) return by("unknown", options.silence_timeout);
  if (greeting < options.speech_threshold) return by("human", greeting + options.speech_end_threshold);
  if (mode === "Enable" || options.speech_threshold > limit)
    return by("machine_start", options.speech_threshold);
  const beeps = party.beep ?? party.kind === "machine";
  const end = beeps ? greeting + beepMs : greeting + options.speech_end_threshold;
  if (end > limit) return { answeredBy: "machine_end_other", ms: limit };
  return { answeredBy: beeps ? "machine_end_beep" : "machine_end_silence", ms: end };
}
