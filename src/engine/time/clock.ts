// The injected clock: virtual (moves only when told) or real. Nothing else reads time or sets timers.

export type ClockMode = "virtual" | "real";

export interface TimerHandle {
  readonly id: number;
  readonly at: number;
}

export interface Clock {
  readonly mode: ClockMode;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `task` once the clock reaches `at` (at once on the next tick if `at` is past). */
  schedule(at: number, task: () => void | Promise<void>): TimerHandle;
  cancel(handle: TimerHandle): void;
  /** Timers not yet run. */
  pending(): number;
  /** Virtual: moves forward by `ms`, running due timers in deadline order. Real: waits that long. */
  advance(ms: number): Promise<void>;
  /** Runs timers until none is left, or until `maxMs` of clock time has passed. */
  runUntilIdle(maxMs?: number): Promise<void>;
  /** Stops every timer (shutdown). */
  dispose(): void;
}

interface Timer {
  id: number;
  at: number;
  task: () => void | Promise<void>;
}

/** Default start of virtual time: a fixed instant, so timestamps repeat run after run. */
export const defaultVirtualStart = Date.UTC(2026, 0, 1, 0, 0, 0);

/** A clock that only moves when told, and never backwards. Timers at the same instant run in scheduling order. */
export function createVirtualClock(start: number = defaultVirtualStart): Clock {
  let now = start;
  let nextId = 1;
  let timers: Timer[] = [];

  const takeDue = (limit: number): Timer | undefined => {
    const first = timers[0];
    if (!first || first.at > limit) return undefined;
    timers.shift();
    return first;
  };

  const runTo = async (target: number) => {
    for (let timer = takeDue(target); timer; timer = takeDue(target)) {
      if (timer.at > now) now = timer.at;
      await timer.task();
    }
    if (target > now) now = target;
  };

  return {
    mode: "virtual",
    now: () => now,
    schedule(at, task) {
      const timer = { id: nextId++, at: Math.max(at, now), task };
      // Keep timers sorted by deadline, then by scheduling order.
      let i = timers.length;
      while (i > 0 && timers[i - 1]!.at > timer.at) i--;
      timers.splice(i, 0, timer);
      return { id: timer.id, at: timer.at };
    },
    cancel(handle) {
      timers = timers.filter((t) => t.id !== handle.id);
    },
    pending: () => timers.length,
    async advance(ms) {
      if (!(ms >= 0)) throw new Error(`the clock cannot go backwards (advance by ${ms} ms)`);
      await runTo(now + ms);
    },
    async runUntilIdle(maxMs = 86_400_000) {
      const limit = now + maxMs;
      while (timers.length > 0 && timers[0]!.at <= limit) await runTo(timers[0]!.at);
    },
    dispose() {
      timers = [];
    },
  };
}

/** Wall-clock time with real timers, for the standalone server. */
export function createRealClock(): Clock {
  const live = new Map<number, ReturnType<typeof setTimeout>>();
  let nextId = 1;
  return {
    mode: "real",
    now: () => Date.now(),
    schedule(at, task) {
      const id = nextId++;
      const handle = setTimeout(
        () => {
          live.delete(id);
          void Promise.resolve()
            .then(task)
            .catch(() => undefined);
        },
        Math.max(0, at - Date.now()),
      );
      handle.unref?.();
      live.set(id, handle);
      return { id, at };
    },
    cancel(handle) {
      const timer = live.get(handle.id);
      if (timer) clearTimeout(timer);
      live.delete(handle.id);
    },
    pending: () => live.size,
    advance: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    async runUntilIdle(maxMs = Number.POSITIVE_INFINITY) {
      // Bounded as the virtual clock's is: a call that never ends stops the wait at `maxMs` of real time.
      const until = Date.now() + maxMs;
      while (live.size > 0 && Date.now() < until)
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(10, until - Date.now()))));
    },
    dispose() {
      for (const timer of live.values()) clearTimeout(timer);
      live.clear();
    },
  };
}

/** Real elapsed milliseconds since the call, for measuring latency (never for behaviour). */
export function startStopwatch(): () => number {
  const start = performance.now();
  return () => Math.round((performance.now() - start) * 1000) / 1000;
}

/**
 * Waits `ms` of real time whatever the sandbox clock: an injected delay is felt by a real client.
 * `unref`: the wait does not keep the process alive (a shutdown's upper bound).
 */
export function waitRealTime(ms: number, options: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (options.unref) timer.unref?.();
  });
}
