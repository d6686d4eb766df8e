// The engine's one event loop on the injected clock: events ordered by (time, class, insertion), run one at a time.
import { BTree } from "../domain/sorted-tree.js";
import type { Clock, TimerHandle } from "./clock.js";

/**
 * What runs first when several events fall on the same millisecond (engine design §7): API changes and
 * hangups beat caller input, input beats timers (a digit landing on a Gather deadline counts), and timers
 * beat verb continuations and callback dispatch.
 */
export const eventClass = { control: 0, input: 1, timer: 2, continuation: 3 } as const;
export type EventClass = (typeof eventClass)[keyof typeof eventClass];

export interface EventHandle {
  readonly seq: number;
  readonly at: number;
}

interface QueuedEvent {
  at: number;
  cls: EventClass;
  seq: number;
  label: string;
  task: () => void | Promise<void>;
}

export interface Scheduler {
  /** Queues `task` at `at` (clock time); the loop runs it after every earlier event has finished. */
  at(at: number, cls: EventClass, label: string, task: () => void | Promise<void>): EventHandle;
  /** Queues `task` `delayMs` from now. */
  after(delayMs: number, cls: EventClass, label: string, task: () => void | Promise<void>): EventHandle;
  cancel(handle: EventHandle | null | undefined): void;
  /** Events waiting, plus the one running. */
  pending(): number;
  /** Resolves when no event is running (events due later may still wait for the clock). */
  quiet(): Promise<void>;
  /** Drops every queued event (sandbox reset). */
  clear(): void;
}

export interface SchedulerOptions {
  /** Called after each event, awaited before the next one (the sandbox waits for webhook deliveries here). */
  afterEach?: () => Promise<void>;
  /** Receives errors thrown by events; the loop carries on. */
  onError?: (error: unknown, label: string) => void;
}

export function createScheduler(clock: Clock, options: SchedulerOptions = {}): Scheduler {
  // Ordered by (time, class, insertion): inserting, cancelling and taking the first cost O(log n), so a
  // sandbox holding many timers (long calls, scheduled messages) schedules as fast as an empty one.
  const order = (a: QueuedEvent, b: QueuedEvent) => a.at - b.at || a.cls - b.cls || a.seq - b.seq;
  const queue = new BTree<QueuedEvent, true>(undefined, order);
  const bySeq = new Map<number, QueuedEvent>();
  let nextSeq = 1;
  let armed: TimerHandle | null = null;
  let running = false;
  let waiters: (() => void)[] = [];

  const arm = () => {
    const first = queue.minKey();
    if (running) return;
    if (!first) {
      if (armed) clock.cancel(armed);
      armed = null;
      return;
    }
    if (armed && armed.at <= first.at) return;
    if (armed) clock.cancel(armed);
    armed = clock.schedule(first.at, drain);
  };

  async function drain(): Promise<void> {
    armed = null;
    if (running) return;
    running = true;
    try {
      for (;;) {
        const first = queue.minKey();
        if (!first || first.at > clock.now()) break;
        queue.delete(first);
        bySeq.delete(first.seq);
        try {
          await first.task();
        } catch (error) {
          options.onError?.(error, first.label);
        }
        if (options.afterEach) await options.afterEach();
      }
    } finally {
      running = false;
      arm();
      if (!running) {
        const resolve = waiters;
        waiters = [];
        for (const r of resolve) r();
      }
    }
  }

  const at: Scheduler["at"] = (time, cls, label, task) => {
    const event: QueuedEvent = {
      at: Math.max(time, clock.now()),
      cls,
      seq: nextSeq++,
      label,
      task,
    };
    queue.set(event, true);
    bySeq.set(event.seq, event);
    arm();
    return { seq: event.seq, at: event.at };
  };

  return {
    at,
    after: (delayMs, cls, label, task) => at(clock.now() + Math.max(0, delayMs), cls, label, task),
    cancel(handle) {
      if (!handle) return;
      const event = bySeq.get(handle.seq);
      if (!event) return;
      bySeq.delete(handle.seq);
      queue.delete(event);
      arm();
    },
    pending: () => queue.size + (running ? 1 : 0),
    quiet: () => (running ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    clear() {
      queue.clear();
      bySeq.clear();
      if (armed) clock.cancel(armed);
      armed = null;
    },
  };
}
