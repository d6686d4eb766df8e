// What the sandbox plays to a call's party (<Say>, prompts, the app's words) as timed utterances, for streams and recordings.
import type { HeardEntry } from "../markup/effects.js";
import { speechLengthMs } from "../markup/speech-length.js";
import { digitLengthMs, playLengthMs } from "../markup/verbs/play.js";
import type { Utterance } from "./call-runtime.js";

/** How long a heard entry sounds: the same lengths the verbs wait for. */
export function heardLengthMs(entry: HeardEntry): number {
  if (entry.kind === "say" || entry.kind === "error-prompt") return speechLengthMs(entry.text ?? "");
  if (entry.kind === "digits") return (entry.text?.length ?? 0) * digitLengthMs;
  if (entry.kind === "play") return playLengthMs;
  return 500;
}

/** The words among what a party heard (<Say> text, error prompts, a welcome greeting, an app's replies). */
export function spokenTo(heard: readonly HeardEntry[]): Utterance[] {
  const spoken: Utterance[] = [];
  for (const entry of heard) {
    if ((entry.kind !== "say" && entry.kind !== "error-prompt") || !entry.text) continue;
    spoken.push({ start: entry.at, end: entry.at + heardLengthMs(entry), text: entry.text });
  }
  return spoken;
}
