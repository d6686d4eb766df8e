// Lines cut from text that arrives in pieces come out the same however the text was cut: a line spread over many pieces, empty lines, a last line without its newline.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineSplitter } from "./state-stream.js";

/** Feeds `text` cut at `cuts` and returns every line, the rest last (as a stream reader would). */
function linesOf(text: string, cuts: number[]): string[] {
  const splitter = new LineSplitter();
  const lines: string[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    lines.push(...splitter.push(text.slice(from, cut)));
    from = cut;
  }
  lines.push(...splitter.push(text.slice(from)));
  const rest = splitter.rest();
  if (rest !== "") lines.push(rest);
  return lines;
}

describe("LineSplitter", () => {
  it("gives the same lines as splitting the whole text, wherever it was cut", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "b", "\n", "é") }),
        fc.array(fc.nat()),
        (text, cuts) => {
          const expected = text.split("\n");
          if (expected.at(-1) === "") expected.pop();
          expect(
            linesOf(
              text,
              cuts.map((cut) => cut % (text.length + 1)),
            ),
          ).toEqual(expected);
        },
      ),
      { numRuns: 300, seed: 3 },
    );
  });

  it("joins a long line from many small pieces and counts what waits for its newline", () => {
    const splitter = new LineSplitter();
    for (let i = 0; i < 1000; i++) expect(splitter.push("x".repeat(64))).toEqual([]);
    expect(splitter.pending).toBe(64_000);
    expect(splitter.push("y\nz")).toEqual([`${"x".repeat(64_000)}y`]);
    expect(splitter.pending).toBe(1);
    expect(splitter.rest()).toBe("z");
  });
});
