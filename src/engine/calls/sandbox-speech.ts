// What the sandbox and the app play to a call's party (<Say>, prompts, the app's words and audio), timed, for streams and recordings.
import type { HeardEntry } from "../../markup/effects.js";
import { speechLengthMs } from "../../markup/speech-length.js";
import { digitLengthMs, playLengthMs } from "../../markup/verbs/play.js";
import type { Utterance } from "../speech/utterance.js";
import type { CallRuntime } from "./call-runtime.js";

/** How long a heard entry sounds: the same lengths the verbs wait for, or until it was cut. */
export function heardLengthMs(entry: HeardEntry): number {
  return entry.cut ? Math.min(entry.cut.ms, fullLengthMs(entry)) : fullLengthMs(entry);
}

/** The words a heard entry spoke: all of its text, or those said before it was cut. */
export function heardWords(entry: HeardEntry): string {
  return entry.cut ? entry.cut.said : (entry.text ?? "");
}

/** How long a heard entry would sound if nothing cut it. */
export function fullLengthMs(entry: HeardEntry): number {
  if (entry.kind === "say" || entry.kind === "error-prompt") return speechLengthMs(entry.text ?? "");
  if (entry.kind === "digits") return (entry.text?.length ?? 0) * digitLengthMs;
  if (entry.kind === "play") return playLengthMs;
  return 500;
}

/** Heard entries that stand for an app's audio (a media stream's turn, transcribed): never synthesized again. */
const transcribed = new WeakSet<HeardEntry>();
export const isTranscribed = (entry: HeardEntry) => transcribed.has(entry);

/** Words a transcriber heard in an app's audio that played to the party from `at`, in their place among the rest. */
export function heardTranscribed(rt: CallRuntime, at: number, text: string): void {
  const entry: HeardEntry = { at, kind: "say", text };
  transcribed.add(entry);
  let i = rt.heard.length;
  while (i > 0 && rt.heard[i - 1]!.at > at) i--;
  rt.heard.splice(i, 0, entry);
}

/** The words among what a party heard (<Say> text, error prompts, a welcome greeting, an app's replies). */
export function spokenTo(heard: readonly HeardEntry[]): Utterance[] {
  const spoken: Utterance[] = [];
  for (const entry of heard) {
    if ((entry.kind !== "say" && entry.kind !== "error-prompt") || !heardWords(entry)) continue;
    // Its sound is the app's audio, which recordings keep as it was.
    if (transcribed.has(entry)) continue;
    spoken.push({ start: entry.at, end: entry.at + heardLengthMs(entry), text: heardWords(entry) });
  }
  return spoken;
}

/** An app's audio kept per call for its recordings: five minutes (2.4 MB of mu-law); beyond that it is not kept. */
export const maxPlayedBytesPerCall = 8 * 300_000;

/** Keeps the app's audio that played to the party from `at`; back-to-back pieces join into one stretch. */
export function keepPlayed(rt: CallRuntime, at: number, audio: Uint8Array): void {
  if (audio.length === 0 || rt.playedBytes + audio.length > maxPlayedBytesPerCall) return;
  rt.playedBytes += audio.length;
  const last = rt.played.at(-1);
  const ms = audio.length / 8;
  if (last && last.end === at) {
    last.chunks.push(audio);
    last.end += ms;
  } else rt.played.push({ start: at, end: at + ms, chunks: [audio] });
}
