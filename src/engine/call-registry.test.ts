// The engine's kept lists (finished calls' runtimes, alerts) keep their newest entries and drop the oldest first, in batches.
import { describe, expect, it } from "vitest";
import { trimOldest } from "./call-registry.js";

describe("trimOldest", () => {
  it("keeps the newest `limit` items once a quarter more have come, dropping the oldest first", () => {
    const items: number[] = [];
    const dropped: number[] = [];
    for (let n = 0; n < 30; n++) {
      items.push(n);
      trimOldest(items, 8, (item) => dropped.push(item));
      expect(items.length).toBeLessThanOrEqual(8 + 2);
      expect(items.at(-1)).toBe(n);
    }
    // Everything dropped is older than everything kept, in the order it came.
    expect([...dropped, ...items]).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect(items.length).toBeGreaterThanOrEqual(8);
  });
});
