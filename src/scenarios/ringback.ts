// The ringback a caller hears while a <Dial> rings, read from the call's timeline: from the moment the
// first of the Dial's legs rings, with the Dial's ringTone when it names one.
import type { PlayedSandbox } from "./played-sandbox.js";

export interface Ringback {
  /** Clock time the first leg of the Dial started ringing. */
  at: number;
  /** The Dial's `ringTone`, when it has one. */
  tone?: string;
}

/** Each Dial of the call whose legs rang: when the caller started hearing ringback, and its tone. */
export function ringbacksOf(core: PlayedSandbox, sid: string): Ringback[] {
  const dials: { tone?: string; legs: string[] }[] = [];
  for (const entry of core.calls.timeline(sid)) {
    if (entry.kind === "verb.start" && entry.detail.verb === "Dial") dials.push({ legs: [] });
    const dial = dials.at(-1);
    if (!dial) continue;
    if (entry.kind === "dial.ring-tone") dial.tone = String(entry.detail.tone);
    if (entry.kind === "dial.leg") dial.legs.push(String(entry.detail.sid));
  }
  const out: Ringback[] = [];
  for (const dial of dials) {
    const rang = dial.legs.flatMap((leg) =>
      core.calls
        .timeline(leg)
        .filter((e) => e.kind === "status" && e.detail.status === "ringing")
        .map((e) => e.at),
    );
    if (rang.length === 0) continue;
    out.push({ at: Math.min(...rang), ...(dial.tone !== undefined ? { tone: dial.tone } : {}) });
  }
  return out;
}
