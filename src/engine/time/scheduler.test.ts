// The event loop runs events in (time, class, insertion) order, whatever order they were queued or cancelled in.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createVirtualClock } from "./clock.js";
import { createScheduler, type EventClass, type EventHandle } from "./scheduler.js";

describe("scheduler", () => {
  it("runs events by time, then class, then insertion, and never a cancelled one", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            at: fc.integer({ min: 0, max: 50 }),
            cls: fc.constantFrom<EventClass>(0, 1, 2, 3),
            cancel: fc.boolean(),
          }),
          { maxLength: 300 },
        ),
        async (events) => {
          const clock = createVirtualClock(0);
          const scheduler = createScheduler(clock);
          const ran: number[] = [];
          const handles: EventHandle[] = events.map((event, i) =>
            scheduler.at(event.at, event.cls, `e${i}`, () => {
              ran.push(i);
            }),
          );
          events.forEach((event, i) => {
            if (event.cancel) scheduler.cancel(handles[i]);
          });
          expect(scheduler.pending()).toBe(events.filter((e) => !e.cancel).length);
          await clock.runUntilIdle();
          await scheduler.quiet();
          // The same order by a plain sort of what was left.
          const expected = events
            .map((event, i) => ({ ...event, i }))
            .filter((event) => !event.cancel)
            .sort((a, b) => a.at - b.at || a.cls - b.cls || a.i - b.i)
            .map((event) => event.i);
          expect(ran).toEqual(expected);
          expect(scheduler.pending()).toBe(0);
        },
      ),
      { seed: 20261125, numRuns: 100 },
    );
  });

  it("runs an event queued while another runs in its turn, and drops everything on clear", async () => {
    const clock = createVirtualClock(0);
    const scheduler = createScheduler(clock);
    const ran: string[] = [];
    scheduler.at(10, 2, "first", () => {
      ran.push(`first@${clock.now()}`);
      scheduler.after(0, 3, "continuation", () => {
        ran.push(`continuation@${clock.now()}`);
      });
      scheduler.after(0, 0, "control", () => {
        ran.push(`control@${clock.now()}`);
      });
    });
    scheduler.at(20, 2, "later", () => {
      ran.push(`later@${clock.now()}`);
    });
    await clock.advance(15);
    await scheduler.quiet();
    expect(ran).toEqual(["first@10", "control@10", "continuation@10"]);
    scheduler.clear();
    await clock.runUntilIdle();
    expect(ran).toHaveLength(3);
    expect(scheduler.pending()).toBe(0);
  });

  it("passes over cancelled events, also once so many are cancelled that they are cleared out", async () => {
    const clock = createVirtualClock(0);
    const scheduler = createScheduler(clock);
    const ran: number[] = [];
    // Times run backwards against insertion, so the heap's order is not the queueing order.
    const handles = Array.from({ length: 4000 }, (_, i) =>
      scheduler.at(4000 - i, 2, `e${i}`, () => {
        ran.push(i);
      }),
    );
    handles.forEach((handle, i) => {
      if (i % 4 !== 0) scheduler.cancel(handle);
    });
    expect(scheduler.pending()).toBe(1000);
    await clock.advance(2000);
    await scheduler.quiet();
    expect(ran).toEqual(Array.from({ length: 500 }, (_, k) => 3996 - 4 * k).filter((i) => 4000 - i <= 2000));
    // Cancelling what already ran, or twice, changes nothing.
    scheduler.cancel(handles[3996]);
    scheduler.cancel(handles[1]);
    expect(scheduler.pending()).toBe(500);
    await clock.runUntilIdle();
    expect(ran).toHaveLength(1000);
    expect(scheduler.pending()).toBe(0);
  });
});
