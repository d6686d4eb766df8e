// sendDigits (`<Number sendDigits>`, `SendDigits` on POST /Calls): when each DTMF tone reaches the answered party.

/** Gap between two tones, and the pauses Twilio documents: `w` waits half a second (`W` a whole one). */
export const digitGapMs = 300;
const pauseMs: Record<string, number> = { w: 500, W: 1000 };

export interface ScheduledDigit {
  digit: string;
  /** Milliseconds after the answer. */
  offset: number;
}

/** The tones of a sendDigits string, in order, timed from the answer; pause characters only move time on. */
export function digitSchedule(digits: string): ScheduledDigit[] {
  const tones: ScheduledDigit[] = [];
  let t = 0;
  for (const ch of digits) {
    const pause = pauseMs[ch];
    if (pause !== undefined) {
      t += pause;
      continue;
    }
    if (!/^[0-9A-D#*]$/.test(ch)) continue;
    tones.push({ digit: ch, offset: t });
    t += digitGapMs;
  }
  return tones;
}
