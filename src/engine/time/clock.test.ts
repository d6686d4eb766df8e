// The virtual clock moves only when told, runs timers in deadline order and never goes backwards.
import { describe, expect, it } from "vitest";
import { createVirtualClock, defaultVirtualStart } from "./clock.js";
import { parseDuration } from "./duration.js";

describe("virtual clock", () => {
  it("starts at a fixed instant and moves only on advance", async () => {
    const clock = createVirtualClock();
    expect(clock.now()).toBe(defaultVirtualStart);
    await clock.advance(1500);
    expect(clock.now()).toBe(defaultVirtualStart + 1500);
  });

  it("runs due timers in deadline order, same-instant timers in scheduling order, each at its own time", async () => {
    const clock = createVirtualClock(0);
    const seen: string[] = [];
    clock.schedule(300, () => {
      seen.push(`c@${clock.now()}`);
    });
    clock.schedule(100, () => {
      seen.push(`a@${clock.now()}`);
      clock.schedule(150, () => {
        seen.push(`nested@${clock.now()}`);
      });
    });
    clock.schedule(100, () => {
      seen.push(`b@${clock.now()}`);
    });
    await clock.advance(200);
    expect(seen).toEqual(["a@100", "b@100", "nested@150"]);
    expect(clock.now()).toBe(200);
    await clock.runUntilIdle();
    expect(seen).toEqual(["a@100", "b@100", "nested@150", "c@300"]);
  });

  it("cancels timers and refuses to go backwards", async () => {
    const clock = createVirtualClock(0);
    let ran = false;
    const handle = clock.schedule(10, () => {
      ran = true;
    });
    clock.cancel(handle);
    await clock.advance(20);
    expect(ran).toBe(false);
    await expect(clock.advance(-1)).rejects.toThrow(/backwards/);
  });
});

describe("durations", () => {
  it.each([
    ["250ms", 250],
    ["30s", 30_000],
    ["1m30s", 90_000],
    ["2h", 7_200_000],
    ["1.5s", 1500],
    ["42", 42],
    [1000, 1000],
  ] as const)("reads %s", (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each(["", "soon", "10 s", "5x", "-3s"])("refuses %j with the accepted forms", (input) => {
    expect(() => parseDuration(input)).toThrow(/250ms, 30s, 1m30s/);
  });
});
