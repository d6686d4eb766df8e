// The audio a stream carries, 20 ms at a time: the words being spoken (synthesized), a tone for other sounds, or silence.
import alawmulaw from "alawmulaw";
import { type SpeechVoice, speechRate, speechSamples } from "../speech/speech-audio.js";
import type { Utterance } from "../speech/utterance.js";
import { frameBytes } from "./stream-protocol.js";

/** A quiet tone (as recordings' placeholder) for what the sandbox plays that has no words: <Play>, digits, beeps. */
const toneAmplitude = 1300;

function toneFrame(hz: number): string {
  // 660 Hz fits a whole number of periods in 20 ms, so frames join without clicks.
  const samples = new Int16Array(frameBytes);
  for (let i = 0; i < frameBytes; i++)
    samples[i] = Math.round(toneAmplitude * Math.sin((2 * Math.PI * hz * i) / speechRate));
  return Buffer.from(alawmulaw.mulaw.encode(samples)).toString("base64");
}

/** Base64 payloads made once: every such frame is the same bytes. */
export const framePayloads = {
  silence: Buffer.alloc(frameBytes, 0xff).toString("base64"),
  sound: toneFrame(660),
};

/** The utterance sounding at `at`, among the last few (older ones ended long ago). */
export function sounding(utterances: readonly Utterance[], at: number): Utterance | undefined {
  for (let i = utterances.length - 1; i >= 0 && i >= utterances.length - 8; i--) {
    const u = utterances[i]!;
    if (u.start <= at && at < u.end) return u;
  }
  return undefined;
}

/**
 * Each synthesized utterance's samples as mu-law, encoded once they are asked for a second time (the
 * synthesizer's cache handed the same array back): every frame of every stream saying it reads them. An
 * array seen once (the placeholder tone, made anew each time) has only its frame encoded.
 */
const encodedSpeech = new WeakMap<Int16Array, Uint8Array>();
const seenOnce = new WeakSet<Int16Array>();
const silentFrame = new Uint8Array(frameBytes).fill(0xff);

function encodedFor(samples: Int16Array): Uint8Array | undefined {
  const known = encodedSpeech.get(samples);
  if (known || !seenOnce.has(samples)) {
    if (!known) seenOnce.add(samples);
    return known;
  }
  const bytes = alawmulaw.mulaw.encode(samples);
  encodedSpeech.set(samples, bytes);
  return bytes;
}

/** The 20 ms of `utterance` spoken by `voice` that start at clock time `at`, as a base64 mu-law payload. */
export function speechFrame(utterance: Utterance, voice: SpeechVoice, at: number): string {
  const samples = speechSamples(utterance.text, voice, utterance.end - utterance.start);
  const first = Math.max(0, Math.round(((at - utterance.start) * speechRate) / 1000));
  const whole = encodedFor(samples);
  // The whole utterance's mu-law read from the frame's first sample, or the frame's own samples encoded.
  const bytes = whole ?? alawmulaw.mulaw.encode(samples.subarray(first, first + frameBytes));
  const from = whole ? first : 0;
  // Mu-law of silence is 0xff: a frame past the words' end is padded with it, as encoded zeros would be.
  if (from + frameBytes <= bytes.length)
    return Buffer.from(bytes.buffer, bytes.byteOffset + from, frameBytes).toString("base64");
  const frame = Uint8Array.from(silentFrame);
  if (from < bytes.length) frame.set(bytes.subarray(from));
  return Buffer.from(frame).toString("base64");
}

/** Samples quieter than this (about -42 dBFS) are silence to the metrics: what a caller would not hear. */
const audibleLevel = 256;
const heardEnds = new WeakMap<Utterance, number>();

/**
 * When `utterance`'s words stop sounding (clock ms): synthesized words fill the start of an utterance's
 * time and silence the rest, and an app hears its end there. Kept per utterance (frames ask every 20 ms).
 */
export function heardEnd(utterance: Utterance, voice: SpeechVoice): number {
  const known = heardEnds.get(utterance);
  if (known !== undefined) return known;
  const samples = speechSamples(utterance.text, voice, utterance.end - utterance.start);
  let last = samples.length;
  while (last > 0 && Math.abs(samples[last - 1]!) < audibleLevel) last--;
  const end = last === 0 ? utterance.end : utterance.start + Math.ceil((last * 1000) / speechRate);
  heardEnds.set(utterance, end);
  return end;
}
const audibleByte = Uint8Array.from({ length: 256 }, (_, b) =>
  Math.abs(alawmulaw.mulaw.decodeSample(b)) >= audibleLevel ? 1 : 0,
);

/** Where mu-law `bytes` sound: the first audible byte and the one after the last, or null for silence. */
export function audibleSpan(bytes: Uint8Array): { from: number; to: number } | null {
  let from = -1;
  for (let i = 0; i < bytes.length; i++) {
    if (audibleByte[bytes[i]!]) {
      from = i;
      break;
    }
  }
  if (from < 0) return null;
  let to = bytes.length;
  while (to > from && !audibleByte[bytes[to - 1]!]) to--;
  return { from, to };
}
