// Frame senders: worker threads holding real-clock media streams' sockets, so frames leave on time whatever the main thread does.
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/**
 * Real clock, frames through a sender: each leaves this long after its instant, evenly, as a network's
 * latency would delay it; a main thread late by less than this does not show on the wire.
 */
export const sendDelayMs = 20;
/** A frame that leaves more than a frame's time after it was due is late (as on the main thread). */
const lateAfterMs = 20;
/** The most sender threads: past four, one thread's sockets are not what holds a machine back. */
const maxThreads = 4;
/**
 * Real clock: bytes read from the app and not yet taken by the loop (each message waits as an event);
 * past this the socket is not read until half of them are, so a flood waits in the app's own buffers.
 */
export const maxUnreadBytes = 256 * 1024;

/** Threads for this machine: one core is the main thread's (API, engine), the rest send; at least one. */
export const defaultSenderThreads = (): number =>
  Math.min(maxThreads, Math.max(1, availableParallelism() - 1));

/** What a socket says, as app-socket.ts hears it from `ws` directly or from a sender thread. */
export interface LinkEvents {
  open(): void;
  /** The socket's link could not be made or broke (a sender thread that stopped, a URL `ws` refuses). */
  refused(status: number): void;
  error(message: string): void;
  message(text: string | null): void;
  pong(): void;
  close(code: number, reason: string): void;
}

export const linkState = { connecting: 0, open: 1, closing: 2, closed: 3 } as const;

/** The part of a WebSocket that app-socket.ts uses. */
export interface SocketLink {
  readonly readyState: number;
  readonly bufferedAmount: number;
  readonly isPaused: boolean;
  /** A sender's socket: frames handed over that left more than a frame's time late (null: sent here). */
  readonly lateFrames: number | null;
  /** Real ms after its instant a frame leaves (0: sent when handed over). */
  readonly sendDelayMs: number;
  /**
   * `inMs`: a frame, to leave that many real ms from now (a sender's own delay not counted); without it, at
   * once. Behind every message before it in any case.
   */
  send(text: string, inMs?: number): void;
  /** The loop took `bytes` of the app's messages (a sender reads on until too many wait). */
  taken(bytes: number): void;
  ping(): void;
  pause(): void;
  resume(): void;
  close(code: number): void;
  terminate(): void;
}

export interface LinkInit {
  headers: Record<string, string>;
  maxPayload: number;
  handshakeTimeout: number;
}

export type ConnectLink = (url: URL, init: LinkInit, events: LinkEvents) => SocketLink;

export interface FrameSenders {
  readonly connect: ConnectLink;
  /** Sockets held by each thread started so far. */
  load(): number[];
  /** Stops every thread (their sockets close as broken). */
  close(): Promise<void>;
}

type Operation = [string, ...unknown[]];
type Told = [string, number, ...unknown[]];

interface Thread {
  worker: Worker;
  outbox: Operation[];
  held: Set<number>;
}

/**
 * Sender threads started on the first socket, each socket on the thread holding fewest. `workerFile` is
 * frame-sender.worker.mjs where the code runs from (src or dist: the package's files know).
 */
export function createFrameSenders(workerFile: string, threads = defaultSenderThreads()): FrameSenders {
  const started: (Thread | undefined)[] = Array.from({ length: Math.max(1, threads) }, () => undefined);
  const listeners = new Map<
    number,
    LinkEvents & { stats(buffered: number, taken: number, late: number): void }
  >();
  let nextId = 1;

  const hear = (batch: Told[]) => {
    for (const [kind, id, a, b, c] of batch) {
      const to = listeners.get(id);
      if (!to) continue;
      if (kind === "stats") to.stats(a as number, b as number, c as number);
      else if (kind === "open") to.open();
      else if (kind === "pong") to.pong();
      else if (kind === "refused") to.refused(a as number);
      else if (kind === "error") to.error(a as string);
      else if (kind === "message") to.message(a as string | null);
      else if (kind === "close") {
        listeners.delete(id);
        to.close(a as number, b as string);
      }
    }
  };

  const start = (index: number): Thread => {
    const worker = new Worker(workerFile, {
      // Plain JavaScript: none of this process's loaders (tsx, a test runner's) is needed, or paid for at start.
      execArgv: [],
      workerData: { wsPath: createRequire(import.meta.url).resolve("ws"), lateAfterMs, maxUnreadBytes },
    });
    const thread: Thread = { worker, outbox: [], held: new Set() };
    worker.on("message", hear);
    // A thread that stops takes its sockets with it: each errs and closes as broken (1006), and the next
    // socket starts another.
    const lost = (reason: string) => {
      if (started[index] === thread) started[index] = undefined;
      for (const id of thread.held) hear([["error", id, `frame sender stopped: ${reason}`]]);
      for (const id of thread.held) hear([["close", id, 1006, "frame sender stopped"]]);
      thread.held.clear();
    };
    worker.on("error", (error) => lost(error.message));
    worker.on("exit", (code) => lost(`exit code ${code}`));
    // After the listeners: adding a "message" listener holds the thread's port (and the process) open again.
    worker.unref();
    started[index] = thread;
    return thread;
  };

  const post = (thread: Thread, operation: Operation) => {
    if (thread.outbox.push(operation) > 1) return;
    // What this turn hands over goes in one message, after the turn's work.
    setImmediate(() => {
      const batch = thread.outbox;
      thread.outbox = [];
      thread.worker.postMessage(batch);
    });
  };

  const pick = (): [Thread, number] => {
    let best = 0;
    for (let i = 1; i < started.length; i++)
      if ((started[i]?.held.size ?? 0) < (started[best]?.held.size ?? 0)) best = i;
    return [started[best] ?? start(best), best];
  };

  const connect: ConnectLink = (url, init, events) => {
    const [thread] = pick();
    const id = nextId++;
    thread.held.add(id);
    let readyState: number = linkState.connecting;
    let isPaused = false;
    // Bytes handed over and not yet taken from the sender's queue, plus what its socket holds: what waits.
    let posted = 0;
    let taken = 0;
    let socketBuffered = 0;
    let lateFrames = 0;
    listeners.set(id, {
      ...events,
      open() {
        readyState = linkState.open;
        events.open();
      },
      close(code, reason) {
        readyState = linkState.closed;
        thread.held.delete(id);
        events.close(code, reason);
      },
      stats(buffered, sent, late) {
        socketBuffered = buffered;
        taken = sent;
        lateFrames = late;
      },
    });
    post(thread, ["open", id, url.toString(), init.headers, init.maxPayload, init.handshakeTimeout]);
    return {
      get readyState() {
        return readyState;
      },
      get bufferedAmount() {
        return posted - taken + socketBuffered;
      },
      get isPaused() {
        return isPaused;
      },
      get lateFrames() {
        return lateFrames;
      },
      sendDelayMs,
      send(text, inMs) {
        posted += text.length;
        post(thread, ["send", id, text, inMs === undefined ? 0 : Date.now() + sendDelayMs + inMs]);
      },
      taken: (bytes) => post(thread, ["taken", id, bytes]),
      // The virtual clock's lockstep (a clock switched to virtual while the stream runs).
      ping: () => post(thread, ["ping", id]),
      pause() {
        isPaused = true;
        post(thread, ["pause", id]);
      },
      resume() {
        isPaused = false;
        post(thread, ["resume", id]);
      },
      close(code) {
        if (readyState === linkState.open || readyState === linkState.connecting)
          readyState = linkState.closing;
        post(thread, ["close", id, code]);
      },
      terminate() {
        if (readyState !== linkState.closed) readyState = linkState.closing;
        post(thread, ["terminate", id]);
      },
    };
  };

  return {
    connect,
    load: () => started.map((thread) => thread?.held.size ?? 0),
    async close() {
      await Promise.all(started.map((thread) => thread?.worker.terminate()));
    },
  };
}

const shared = new Map<string, FrameSenders>();

/** One set of sender threads per process for each size: sandboxes in one process share them. */
export function sharedFrameSenders(workerFile: string, threads = defaultSenderThreads()): FrameSenders {
  const key = `${threads} ${workerFile}`;
  let senders = shared.get(key);
  if (!senders) {
    senders = createFrameSenders(workerFile, threads);
    shared.set(key, senders);
  }
  return senders;
}
