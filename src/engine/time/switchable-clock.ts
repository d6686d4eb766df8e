// A clock that can switch between real and virtual time while running, keeping time monotonic and timers pending.
import {
  type Clock,
  type ClockMode,
  createRealClock,
  createVirtualClock,
  type TimerHandle,
} from "./clock.js";

export interface SwitchableClock extends Clock {
  /**
   * Switches to `mode`. Time never goes backwards: virtual time starts where the clock stands, and real
   * time after virtual time that ran ahead of the wall clock keeps that lead. Pending timers move over
   * with their deadlines unchanged.
   */
  switchTo(mode: ClockMode): void;
  /** Moves the clock forward to at least `at` without running timers (a restart resuming saved time). */
  resumeFrom(at: number): void;
}

interface Entry {
  at: number;
  task: () => void | Promise<void>;
  inner: TimerHandle;
}

export interface SwitchableClockOptions {
  /** Makes the delegate for a mode; `start` is where virtual time begins. Injectable for tests. */
  create?: (mode: ClockMode, start: number) => Clock;
}

const defaultCreate = (mode: ClockMode, start: number): Clock =>
  mode === "virtual" ? createVirtualClock(start) : createRealClock();

/** Wraps a clock of `initial` (or the clock given) so that its mode can change at run time. */
export function createSwitchableClock(
  initial: ClockMode | Clock,
  options: SwitchableClockOptions = {},
): SwitchableClock {
  const create = options.create ?? defaultCreate;
  let delegate = typeof initial === "string" ? create(initial, createVirtualClock().now()) : initial;
  // Added to a real delegate's time, so that time stays ahead of any virtual time already shown.
  let offset = 0;
  // The latest time handed out: `now()` never returns less, even if the wall clock steps back.
  let shown = delegate.now();
  let nextId = 1;
  const timers = new Map<number, Entry>();

  const now = () => {
    const value = delegate.now() + (delegate.mode === "real" ? offset : 0);
    if (value > shown) shown = value;
    return shown;
  };

  const place = (id: number, at: number, task: () => void | Promise<void>): TimerHandle => {
    const innerAt = delegate.mode === "real" ? at - offset : at;
    return delegate.schedule(innerAt, () => {
      timers.delete(id);
      return task();
    });
  };

  return {
    get mode() {
      return delegate.mode;
    },
    now,
    schedule(at, task) {
      const id = nextId++;
      timers.set(id, { at, task, inner: place(id, at, task) });
      return { id, at };
    },
    cancel(handle) {
      const entry = timers.get(handle.id);
      if (!entry) return;
      delegate.cancel(entry.inner);
      timers.delete(handle.id);
    },
    pending: () => timers.size,
    advance: (ms) => delegate.advance(ms),
    runUntilIdle: (maxMs) => delegate.runUntilIdle(maxMs),
    dispose() {
      delegate.dispose();
      timers.clear();
    },
    switchTo(mode) {
      if (mode === delegate.mode) return;
      const at = now();
      for (const entry of timers.values()) delegate.cancel(entry.inner);
      delegate.dispose();
      delegate = create(mode, at);
      if (mode === "real") offset = Math.max(0, at - delegate.now());
      for (const [id, entry] of timers) entry.inner = place(id, entry.at, entry.task);
    },
    resumeFrom(at) {
      if (at <= now()) return;
      if (delegate.mode === "real") offset += at - now();
      else {
        // No timers exist yet at a restart; moving a virtual clock forward runs none.
        void delegate.advance(at - delegate.now());
      }
      shown = Math.max(shown, at);
    },
  };
}
