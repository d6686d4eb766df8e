// What a recording keeps, as a table: pauses skipped or silent, utterances a pause cuts, trimming.
import { describe, expect, it } from "vitest";
import { type HeardSpan, type RecordingPause, recordedWindow } from "./recording-window.js";

const s = 1000;
/** Heard on channel 1: "a" at 2-4 s, "b" at 10-13 s, "c" at 20-22 s of a recording running 0-25 s. */
const heard: HeardSpan[] = [
  { channel: 1, text: "a", start: 2 * s, end: 4 * s },
  { channel: 1, text: "b", start: 10 * s, end: 13 * s },
  { channel: 1, text: "c", start: 20 * s, end: 22 * s },
];
const pause = (from: number, to: number | null, skip = false): RecordingPause => ({
  from: from * s,
  to: to === null ? null : to * s,
  skip,
});

/** [what, pauses, trim, kept spans as [text, start s, end s], length s] */
const table: [string, RecordingPause[], boolean, [string, number, number][], number][] = [
  [
    "no pause",
    [],
    false,
    [
      ["a", 2, 4],
      ["b", 10, 13],
      ["c", 20, 22],
    ],
    25,
  ],
  [
    "a silent pause drops its speech and keeps its time",
    [pause(9, 15)],
    false,
    [
      ["a", 2, 4],
      ["c", 20, 22],
    ],
    25,
  ],
  [
    "a skipped pause drops its time too",
    [pause(9, 15, true)],
    false,
    [
      ["a", 2, 4],
      ["c", 14, 16],
    ],
    19,
  ],
  [
    "a pause starting mid-utterance keeps the part before",
    [pause(11, 15, true)],
    false,
    [
      ["a", 2, 4],
      ["b", 10, 11],
      ["c", 16, 18],
    ],
    21,
  ],
  [
    "a pause ending mid-utterance keeps the part after",
    [pause(8, 12, true)],
    false,
    [
      ["a", 2, 4],
      ["b", 8, 9],
      ["c", 16, 18],
    ],
    21,
  ],
  [
    "a pause still open at the end runs to the end",
    [pause(15, null, true)],
    false,
    [
      ["a", 2, 4],
      ["b", 10, 13],
    ],
    15,
  ],
  [
    "two skipped pauses add up",
    [pause(5, 8, true), pause(14, 18, true)],
    false,
    [
      ["a", 2, 4],
      ["b", 7, 10],
      ["c", 13, 15],
    ],
    18,
  ],
  [
    "trim cuts leading and trailing silence",
    [],
    true,
    [
      ["a", 0, 2],
      ["b", 8, 11],
      ["c", 18, 20],
    ],
    20,
  ],
  [
    "trim after a skipped pause",
    [pause(9, 15, true)],
    true,
    [
      ["a", 0, 2],
      ["c", 12, 14],
    ],
    14,
  ],
];

describe("recordedWindow", () => {
  it.each(table)("%s", (_what, pauses, trim, kept, length) => {
    const window = recordedWindow(heard, 0, 25 * s, pauses, trim);
    expect(window.speech.map((span) => [span.text, span.start_ms / s, span.end_ms / s])).toEqual(kept);
    expect(window.lengthMs / s).toBe(length);
  });

  it("hears only what falls inside the recording, and trims nothing when nothing was said", () => {
    const window = recordedWindow(heard, 3 * s, 12 * s, [], true);
    expect(window.speech.map((span) => [span.text, span.start_ms, span.end_ms])).toEqual([
      ["a", 0, 1 * s],
      ["b", 7 * s, 9 * s],
    ]);
    expect(recordedWindow([], 0, 9 * s, [], true).lengthMs).toBe(9 * s);
  });
});
