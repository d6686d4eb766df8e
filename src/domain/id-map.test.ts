// The split id map answers as one Map would, whatever the ids look like: sids, numbers, one character, none.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdMap } from "./id-map.js";

describe("IdMap", () => {
  it("matches a Map under random sets and deletes, counting each id once", () => {
    const id = fc.oneof(
      fc.constantFrom("", "a", "CA", "CA0", "SM1f"),
      fc.stringMatching(/^CA[0-9a-f]{32}$/),
      fc.stringMatching(/^\+1555[0-9]{7}$/),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ set: fc.boolean(), id, position: fc.nat() }), { maxLength: 400 }),
        (ops) => {
          const ids = new IdMap();
          const model = new Map<string, number>();
          for (const op of ops) {
            if (op.set) {
              ids.set(op.id, op.position);
              model.set(op.id, op.position);
            } else {
              expect(ids.delete(op.id)).toBe(model.delete(op.id));
            }
            expect(ids.size).toBe(model.size);
          }
          for (const op of ops) {
            expect(ids.get(op.id)).toBe(model.get(op.id));
            expect(ids.has(op.id)).toBe(model.has(op.id));
          }
        },
      ),
      { numRuns: 100, seed: 7 },
    );
  });
});
