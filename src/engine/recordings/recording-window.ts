// What a recording holds once its pauses are taken out: the speech it kept and its length, pauses skipped or silent.
import type { SpeechSpan } from "../../domain/recording.js";

/** A stretch during which a recording did not record (clock times); `to` is null while it lasts. */
export interface RecordingPause {
  from: number;
  to: number | null;
  /** Twilio's PauseBehavior: `skip` leaves the stretch out, `silence` (the default) keeps it as silence. */
  skip: boolean;
}

/** An utterance heard on one of the recording's channels (clock times). */
export interface HeardSpan {
  channel: number;
  text: string;
  start: number;
  end: number;
  /** Audio heard as it was (an app's, mu-law, 8 bytes a millisecond from `start`) instead of spoken text. */
  audio?: Uint8Array;
}

export interface RecordedWindow {
  /** Spans relative to the start of the recorded audio. */
  speech: SpeechSpan[];
  lengthMs: number;
}

/**
 * The audio a recording running from `startedAt` to `endAt` holds. Speech inside a pause is not recorded;
 * an utterance a pause cuts keeps its first recorded part. A skipped pause shortens the recording and
 * moves what follows it earlier; a silent one keeps its place. `trim` cuts the silence before the first
 * and after the last utterance (a recording with no speech keeps its length).
 */
export function recordedWindow(
  heard: HeardSpan[],
  startedAt: number,
  endAt: number,
  pauses: readonly RecordingPause[],
  trim: boolean,
): RecordedWindow {
  const gaps = pauses
    .map((p) => ({ from: Math.max(startedAt, p.from), to: Math.min(endAt, p.to ?? endAt), skip: p.skip }))
    .filter((p) => p.to > p.from)
    .sort((a, b) => a.from - b.from);
  /** Milliseconds of skipped pauses before clock time `t`. */
  const skippedBefore = (t: number) =>
    gaps.reduce((sum, p) => (p.skip && p.from < t ? sum + Math.min(p.to, t) - p.from : sum), 0);
  const offset = (t: number) => t - startedAt - skippedBefore(t);

  const speech: SpeechSpan[] = [];
  for (const u of heard) {
    let start = Math.max(u.start, startedAt);
    let end = Math.min(u.end, endAt);
    if (u.end <= startedAt || u.start >= endAt) continue;
    // The first stretch of the utterance outside every pause.
    for (const p of gaps) {
      if (p.to <= start || p.from >= end) continue;
      if (p.from <= start) start = p.to;
      else end = p.from;
    }
    if (end <= start) continue;
    const span: SpeechSpan = {
      channel: u.channel,
      text: u.text,
      start_ms: offset(start),
      end_ms: offset(end),
    };
    if (u.audio)
      span.audio = Buffer.from(u.audio.subarray((start - u.start) * 8, (end - u.start) * 8)).toString(
        "base64",
      );
    speech.push(span);
  }
  speech.sort((a, b) => a.start_ms - b.start_ms || a.channel - b.channel);
  const lengthMs = Math.max(0, offset(endAt));
  if (!trim || speech.length === 0) return { speech, lengthMs };
  const first = Math.min(...speech.map((s) => s.start_ms));
  const last = Math.max(...speech.map((s) => s.end_ms));
  return {
    speech: speech.map((s) => ({ ...s, start_ms: s.start_ms - first, end_ms: s.end_ms - first })),
    lengthMs: last - first,
  };
}
