// The switchable clock: time never goes backwards across mode switches, and pending timers move with it.
import { describe, expect, it } from "vitest";
import { type Clock, type ClockMode, createVirtualClock } from "./clock.js";
import { createSwitchableClock } from "./switchable-clock.js";

/** A "real" clock whose wall time the test sets, so switching is tested without waiting. */
function fakeWall(start: number) {
  const wall = { now: start };
  const create = (mode: ClockMode, at: number): Clock => {
    if (mode === "virtual") return createVirtualClock(at);
    const inner = createVirtualClock(wall.now);
    return {
      ...inner,
      mode: "real",
      now: () => wall.now,
    };
  };
  return { wall, create };
}

describe("switchable clock", () => {
  it("starts in the mode asked for and delegates advance and timers", async () => {
    const clock = createSwitchableClock("virtual");
    const ran: number[] = [];
    clock.schedule(clock.now() + 1000, () => {
      ran.push(clock.now());
    });
    expect(clock.pending()).toBe(1);
    await clock.advance(1500);
    expect(ran).toEqual([Date.UTC(2026, 0, 1, 0, 0, 1)]);
    expect(clock.pending()).toBe(0);
  });

  it("keeps virtual time that ran ahead of the wall clock when switching to real", async () => {
    const { wall, create } = fakeWall(Date.UTC(2026, 0, 1));
    const clock = createSwitchableClock("virtual", { create });
    await clock.advance(3_600_000);
    const before = clock.now();
    clock.switchTo("real");
    expect(clock.mode).toBe("real");
    expect(clock.now()).toBeGreaterThanOrEqual(before);
    wall.now += 10;
    expect(clock.now()).toBe(before + 10);
  });

  it("never goes backwards when switching from real to virtual and back", () => {
    const { wall, create } = fakeWall(Date.UTC(2026, 5, 1));
    const clock = createSwitchableClock("real", { create });
    const seen = [clock.now()];
    clock.switchTo("virtual");
    seen.push(clock.now());
    wall.now -= 60_000; // the wall clock steps back (NTP)
    clock.switchTo("real");
    seen.push(clock.now());
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it("moves pending timers to the new mode with their deadlines unchanged", async () => {
    const { create } = fakeWall(Date.UTC(2026, 0, 1));
    const clock = createSwitchableClock("real", { create });
    const ran: string[] = [];
    const at = clock.now() + 5000;
    clock.schedule(at, () => {
      ran.push("due");
    });
    const canceled = clock.schedule(at, () => {
      ran.push("canceled");
    });
    clock.cancel(canceled);
    clock.switchTo("virtual");
    expect(clock.pending()).toBe(1);
    await clock.advance(4999);
    expect(ran).toEqual([]);
    await clock.advance(1);
    expect(ran).toEqual(["due"]);
  });

  it("resumes from a saved time without going back", () => {
    const clock = createSwitchableClock("virtual");
    clock.resumeFrom(Date.UTC(2026, 2, 1));
    expect(clock.now()).toBe(Date.UTC(2026, 2, 1));
    clock.resumeFrom(Date.UTC(2026, 1, 1));
    expect(clock.now()).toBe(Date.UTC(2026, 2, 1));
  });
});
