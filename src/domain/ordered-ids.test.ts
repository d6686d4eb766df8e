// An index bucket answers as a sorted list would through any mix of adds and removals: at its ends (an array), in its middle (where it becomes a tree), and after its front was dropped.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderedIds } from "./ordered-ids.js";

type Op = { add: boolean; position: number };

/** Applies `ops` to a bucket and to a plain sorted list, then compares every read. */
function check(start: number[], ops: Op[]) {
  const ids = OrderedIds.fromSorted([...start]);
  let model = [...start];
  for (const { add, position } of ops) {
    if (add) {
      ids.add(position);
      if (!model.includes(position)) model = [...model, position].sort((a, b) => a - b);
    } else {
      ids.delete(position);
      model = model.filter((p) => p !== position);
    }
  }
  expect(ids.size).toBe(model.length);
  expect(ids.first()).toBe(model[0]);
  expect(ids.last()).toBe(model[model.length - 1]);
  expect([...ids.walk()]).toEqual(model);
  expect([...ids.walk(true)]).toEqual([...model].reverse());
  for (const after of [model[0], model[Math.floor(model.length / 2)], -1, 1e9]) {
    if (after === undefined) continue;
    expect([...ids.walk(false, after)]).toEqual(model.filter((p) => p > after));
    expect([...ids.walk(true, after)]).toEqual(model.filter((p) => p < after).reverse());
  }
}

const range = (from: number, to: number, step = 1) =>
  Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => from + i * step);

describe("OrderedIds", () => {
  it("matches a sorted list under random changes near its ends and in its middle", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.array(fc.record({ add: fc.boolean(), position: fc.integer({ min: 0, max: 6000 }) }), {
          maxLength: 300,
        }),
        (size, ops) => check(range(0, size * 2, 2), ops),
      ),
      { numRuns: 60, seed: 12 },
    );
  });

  it("grows from its first position by appending, inserting before it and refilling once emptied", () => {
    check([], [{ add: true, position: 7 }]);
    check(
      [],
      [
        { add: true, position: 7 },
        { add: true, position: 3 },
        { add: true, position: 9 },
      ],
    );
    check(
      [],
      [
        { add: true, position: 7 },
        { add: false, position: 7 },
        { add: true, position: 2 },
        { add: true, position: 1 },
      ],
    );
  });

  it("drops its front oldest first, as a status bucket empties, and keeps answering", () => {
    const ops: Op[] = [
      ...range(0, 5000).map((position) => ({ add: true, position })),
      ...range(0, 4000).map((position) => ({ add: false, position })),
      // Back in before the head, then after it.
      { add: true, position: 3999 },
      { add: true, position: 1 },
      { add: false, position: 4500 },
    ];
    check([], ops);
  });

  it("keeps answering once a change deep inside a large bucket turns it into a tree", () => {
    check(range(0, 20_000, 2), [
      { add: true, position: 10_001 },
      { add: false, position: 5000 },
      { add: true, position: 20_000 },
      { add: false, position: 0 },
      { add: true, position: 1 },
    ]);
  });

  it("keeps answering as a large bucket empties from either end and fills again (its array shrinks)", () => {
    const grow = range(0, 6000).map((position) => ({ add: true, position }));
    check(
      [],
      [
        ...grow,
        // From the back, one at a time, far below a quarter of the room.
        ...range(5999, 99, -1).map((position) => ({ add: false, position })),
        { add: true, position: 6000 },
        { add: true, position: 50 },
        // From the front, past the point where the dropped front is cut off.
        ...range(0, 90).map((position) => ({ add: false, position })),
        ...range(7000, 9000).map((position) => ({ add: true, position })),
        ...range(7000, 8990).map((position) => ({ add: false, position })),
      ],
    );
  });

  it("keeps positions at and past 2^32 exact, in small and large buckets, built or grown", () => {
    const edge = 2 ** 32;
    // Grown across the edge, past the plain-array size, then shrunk and grown again.
    check(
      [],
      [
        ...range(edge - 300, edge + 300).map((position) => ({ add: true, position })),
        ...range(edge - 300, edge + 200).map((position) => ({ add: false, position })),
        { add: true, position: edge - 1 },
      ],
    );
    // A large typed bucket below the edge meets a position past it.
    check(range(edge - 1000, edge), [{ add: true, position: edge + 5 }]);
    // A full plain bucket below the edge becomes a typed one on a position past it.
    check(range(edge - 256, edge), [{ add: true, position: edge + 7 }]);
    // Built from positions past the edge.
    check(range(edge, edge + 1000), [{ add: true, position: edge + 2000 }]);
  });

  it("ignores adding a position it holds and removing one it does not", () => {
    check(range(0, 10), [
      { add: true, position: 4 },
      { add: false, position: 11 },
      { add: false, position: -1 },
    ]);
  });
});
