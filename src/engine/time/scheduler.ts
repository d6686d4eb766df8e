// The engine's one event loop on the injected clock: events ordered by (time, class, insertion), run one at a time.
import TinyQueue from "tinyqueue";
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
  /** Cancelled: left in the heap and passed over when it comes up (a heap removes only its top). */
  cancelled: boolean;
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
  /**
   * Called after each event; a promise it returns is awaited before the next one (the sandbox waits for
   * webhook deliveries here on the virtual clock).
   */
  afterEach?: () => Promise<void> | undefined;
  /** Receives errors thrown by events; the loop carries on. */
  onError?: (error: unknown, label: string) => void;
}

export function createScheduler(clock: Clock, options: SchedulerOptions = {}): Scheduler {
  // Ordered by (time, class, insertion): inserting and taking the first cost O(log n), and cancelling marks the
  // event (an O(n) clear-out once cancelled ones are most of the heap), so a sandbox holding many timers (long
  // calls, scheduled messages) schedules as fast as an empty one. Synchronous events due at the same instant
  // run one after another with no microtask turn between them on the real clock.
  const order = (a: QueuedEvent, b: QueuedEvent) => a.at - b.at || a.cls - b.cls || a.seq - b.seq;
  // A binary heap: a push or taking the first is O(log n) over one array, no node objects.
  let queue = new TinyQueue<QueuedEvent>([], order);
  /** Queued events not cancelled, by seq (for cancel). */
  const bySeq = new Map<number, QueuedEvent>();
  let nextSeq = 1;
  let armed: TimerHandle | null = null;
  let running = false;
  let waiters: (() => void)[] = [];

  /** The first event not cancelled, with the cancelled ones before it dropped. */
  const first = (): QueuedEvent | undefined => {
    let top = queue.peek();
    while (top?.cancelled) {
      queue.pop();
      top = queue.peek();
    }
    return top;
  };

  /** Cancelled events wait in the heap until they come up; past half the heap they are cleared out at once. */
  const dropCancelled = () => {
    if (queue.length > 1024 && bySeq.size * 2 < queue.length) {
      queue = new TinyQueue([...bySeq.values()], order);
    }
  };

  const arm = () => {
    const next = first();
    if (running) return;
    if (!next) {
      if (armed) clock.cancel(armed);
      armed = null;
      return;
    }
    if (armed && armed.at <= next.at) return;
    if (armed) clock.cancel(armed);
    armed = clock.schedule(next.at, drain);
  };

  async function drain(): Promise<void> {
    armed = null;
    if (running) return;
    running = true;
    try {
      for (;;) {
        const next = first();
        if (!next || next.at > clock.now()) break;
        queue.pop();
        bySeq.delete(next.seq);
        try {
          // Most events are synchronous: only a promise is awaited, so they cost no extra turn.
          const ran = next.task();
          if (ran) await ran;
        } catch (error) {
          options.onError?.(error, next.label);
        }
        const settled = options.afterEach?.();
        if (settled) await settled;
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
      cancelled: false,
    };
    queue.push(event);
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
      event.cancelled = true;
      dropCancelled();
      arm();
    },
    pending: () => bySeq.size + (running ? 1 : 0),
    quiet: () => (running ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    clear() {
      queue = new TinyQueue<QueuedEvent>([], order);
      bySeq.clear();
      if (armed) clock.cancel(armed);
      armed = null;
    },
  };
}
