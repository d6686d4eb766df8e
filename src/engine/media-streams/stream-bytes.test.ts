// The byte queue a stream keeps the app's audio in: order across blocks, drops from the end, no object per payload.
import { describe, expect, it } from "vitest";
import { audioBlockBytes, dropNewestBytes, newByteQueue, pushBytes, takeBytes } from "./stream-bytes.js";

/** A seeded sequence of pushes, takes and drops, checked against a plain array doing the same. */
function lcg(seed: number) {
  let state = seed;
  return (limit: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % limit;
  };
}

describe("the stream's audio bytes", () => {
  it("keeps bytes in order across blocks through pushes, takes and drops of every size", () => {
    const q = newByteQueue();
    let model: number[] = [];
    let next = 0;
    const random = lcg(7);
    for (let step = 0; step < 600; step++) {
      const op = random(3);
      const size = random(3) === 0 ? random(3 * audioBlockBytes) : random(200);
      if (op === 0) {
        const bytes = Uint8Array.from({ length: size }, () => next++ % 251);
        pushBytes(q, bytes);
        model.push(...bytes);
      } else if (op === 1) {
        expect([...takeBytes(q, size)]).toEqual(model.slice(0, size));
        model = model.slice(size);
      } else {
        expect(dropNewestBytes(q, size)).toBe(Math.min(size, model.length));
        model = model.slice(0, Math.max(0, model.length - size));
      }
      expect(q.length).toBe(model.length);
      // Whole blocks only for what is held: at most one part-read and one part-filled block besides.
      expect(q.blocks.length).toBeLessThanOrEqual(Math.ceil(model.length / audioBlockBytes) + 1);
    }
    expect([...takeBytes(q, model.length)]).toEqual(model);
    expect(q.blocks).toEqual([]);
  });

  it("holds a flood of one-byte payloads in blocks, not one object each", () => {
    const q = newByteQueue();
    for (let i = 0; i < 100_000; i++) pushBytes(q, Uint8Array.of(i & 0xff));
    expect(q.length).toBe(100_000);
    expect(q.blocks).toHaveLength(Math.ceil(100_000 / audioBlockBytes));
  });
});
