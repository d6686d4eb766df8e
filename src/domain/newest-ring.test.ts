// A ring keeps the newest N items, oldest first, and says which item each push dropped; 0 keeps none.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NewestRing } from "./newest-ring.js";

describe("NewestRing", () => {
  it("keeps the newest `capacity` items oldest first, and each push past it drops the oldest", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 40 }), (capacity, pushes) => {
        const ring = new NewestRing<number>(capacity);
        const dropped: number[] = [];
        for (let n = 0; n < pushes; n++) {
          const gone = ring.push(n);
          if (gone !== undefined) dropped.push(gone);
        }
        const kept = Array.from({ length: pushes }, (_, n) => n).slice(Math.max(0, pushes - capacity));
        expect(ring.toArray()).toEqual(kept);
        expect(ring.size).toBe(kept.length);
        // Everything dropped is older than everything kept, in the order it came.
        expect([...dropped, ...kept]).toEqual(Array.from({ length: pushes }, (_, n) => n));
        expect(ring.filter((n) => n % 2 === 0)).toEqual(kept.filter((n) => n % 2 === 0));
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it("starts over empty when cleared, and refuses a capacity that is not a whole number, 0 or more", () => {
    const ring = new NewestRing<string>(2);
    for (const item of ["a", "b", "c"]) ring.push(item);
    ring.clear();
    expect(ring.toArray()).toEqual([]);
    expect(ring.push("d")).toBeUndefined();
    expect(ring.toArray()).toEqual(["d"]);
    expect(() => new NewestRing(-1, "journal limit")).toThrow(
      /journal limit must be a whole number, 0 or more/,
    );
    expect(() => new NewestRing(1.5)).toThrow(RangeError);
  });
});
