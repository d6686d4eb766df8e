// Live audio of a call's party kept on the call's clock: the microphone of a browser phone, read back 20 ms at a time.
import type { CallRuntime, PlayedAudio } from "./call-runtime.js";

/** A party's live audio kept per call: five minutes (2.4 MB of mu-law), as an app's played audio is. */
export const maxMicBytesPerCall = 8 * 300_000;
/** A frame that arrives this soon after the last one's end joins it: the network's jitter, not a gap. */
const joinWithinMs = 60;
/** A sender running this far ahead of the clock is dropped until the clock catches up. */
const aheadLimitMs = 500;

/**
 * Keeps `audio` (mu-law, 8 bytes a millisecond) the party said from `now`; back-to-back frames join into one
 * stretch. Answers the clock time the audio starts at, or null when it was not kept: empty, past the call's
 * bound, or sent too far ahead of the clock.
 */
export function keepMic(rt: CallRuntime, now: number, audio: Uint8Array): number | null {
  if (audio.length === 0 || rt.micBytes + audio.length > maxMicBytesPerCall) return null;
  const last = rt.mic.at(-1);
  if (last && last.end > now + aheadLimitMs) return null;
  rt.micBytes += audio.length;
  const ms = audio.length / 8;
  if (last && last.end >= now - joinWithinMs) {
    const at = last.end;
    last.chunks.push(audio);
    last.end += ms;
    return at;
  }
  rt.mic.push({ start: now, end: now + ms, chunks: [audio] });
  return now;
}

/**
 * `length` bytes of kept audio from clock time `at` (whole milliseconds), or null when none of the newest pieces
 * covers `at`; bytes past a piece's end are mu-law silence (0xff).
 */
export function audioAt(pieces: readonly PlayedAudio[], at: number, length: number): Uint8Array | null {
  for (let i = pieces.length - 1; i >= 0 && i >= pieces.length - 8; i--) {
    const piece = pieces[i]!;
    if (at < piece.start || at >= piece.end) continue;
    const out = new Uint8Array(length).fill(0xff);
    let skip = Math.round((at - piece.start) * 8);
    let written = 0;
    for (const chunk of piece.chunks) {
      if (skip >= chunk.length) {
        skip -= chunk.length;
        continue;
      }
      const part = chunk.subarray(skip, skip + length - written);
      out.set(part, written);
      written += part.length;
      skip = 0;
      if (written >= length) break;
    }
    return out;
  }
  return null;
}
