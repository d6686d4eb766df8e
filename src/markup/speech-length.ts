// How long speaking a phrase takes: Say's prompt length, and a simulated party's utterance when its script gives none.

/** Milliseconds a spoken phrase lasts: 400 ms a word, at least 1 s. */
export function speechLengthMs(text: string): number {
  const words = text.trim().split(/\s+/).filter(Boolean).length;
  return Math.max(1000, words * 400);
}
