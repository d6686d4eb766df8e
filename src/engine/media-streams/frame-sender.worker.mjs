// A frame sender: a worker thread that holds real-clock media streams' sockets to their apps and sends each
// message when it is due, so a busy main thread (API, engine) delays no frame already handed over.
// Plain JavaScript: it runs as it is from the sources and from the package (frame-senders.ts starts it).
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

const WebSocket = createRequire(import.meta.url)(workerData.wsPath);
/** A frame sent this much after it was due is late (as the main thread counts it, stream-pacing.ts). */
const lateAfterMs = workerData.lateAfterMs;
/** Bytes read from an app and not yet taken by the main thread; past this the socket is not read (app-socket.ts). */
const maxUnreadBytes = workerData.maxUnreadBytes;
/** How often the sockets' figures (bytes waiting, late frames) are told when they changed. */
const statsEveryMs = 100;

/**
 * Socket id -> its `ws`, its queue of [text, wall-clock due, close code, is a frame] from `head` on, the
 * timer for the first not yet due, bytes taken from the queue (sent or not), late frames, the app's bytes
 * read and not yet taken by the main thread, and why reading is held.
 */
const sockets = new Map();
let outbox = [];
let flushing = false;

/** Events to the main thread leave together, once this turn's work is done. */
function tell(event) {
  outbox.push(event);
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    const batch = outbox;
    outbox = [];
    parentPort.postMessage(batch);
  });
}

const reading = (entry) => {
  const held = entry.heldByMain || entry.unread > maxUnreadBytes;
  if (held && !entry.ws.isPaused) entry.ws.pause();
  else if (!held && entry.ws.isPaused && entry.unread <= maxUnreadBytes / 2) entry.ws.resume();
};

function open(id, url, headers, maxPayload, handshakeTimeout) {
  let ws;
  try {
    ws = new WebSocket(url, { headers, maxPayload, handshakeTimeout, perMessageDeflate: false });
  } catch (error) {
    tell(["error", id, error.message]);
    tell(["close", id, 1006, ""]);
    return;
  }
  const entry = { ws, queue: [], head: 0, timer: undefined, taken: 0, late: 0, unread: 0, heldByMain: false };
  entry.told = { buffered: 0, taken: 0, late: 0 };
  sockets.set(id, entry);
  ws.on("open", () => tell(["open", id]));
  ws.on("unexpected-response", (request, response) => {
    request.destroy();
    tell(["refused", id, response.statusCode ?? 0]);
  });
  ws.on("error", (error) => tell(["error", id, error.message]));
  ws.on("message", (data, isBinary) => {
    const text = isBinary ? null : data.toString();
    entry.unread += text?.length ?? 0;
    reading(entry);
    tell(["message", id, text]);
  });
  ws.on("pong", () => tell(["pong", id]));
  ws.on("close", (code, reason) => {
    clearTimeout(entry.timer);
    sockets.delete(id);
    tell(["stats", id, 0, entry.taken + queuedBytes(entry), entry.late]);
    tell(["close", id, code, reason.toString()]);
  });
}

const queuedBytes = (entry) => {
  let bytes = 0;
  for (let i = entry.head; i < entry.queue.length; i++) bytes += entry.queue[i][0]?.length ?? 0;
  return bytes;
};

/** Sends what is due, in order; the first message not yet due sets the timer. */
function pump(entry) {
  entry.timer = undefined;
  const { ws, queue } = entry;
  const now = Date.now();
  while (entry.head < queue.length) {
    const [text, due, closeCode, frame] = queue[entry.head];
    if (due > now) {
      entry.timer = setTimeout(pump, due - now, entry);
      break;
    }
    entry.head++;
    if (closeCode !== undefined) {
      ws.close(closeCode);
      continue;
    }
    entry.taken += text.length;
    if (ws.readyState !== WebSocket.OPEN) continue;
    ws.send(text);
    if (frame && now - due > lateAfterMs) entry.late++;
  }
  if (entry.head === queue.length) {
    queue.length = 0;
    entry.head = 0;
  } else if (entry.head > 1024) {
    queue.splice(0, entry.head);
    entry.head = 0;
  }
}

/**
 * A message joins its socket's queue behind the ones before it: a frame with its wall-clock due time, any
 * other message (due 0) as soon as they have gone.
 */
function enqueue(id, text, due, closeCode) {
  const entry = sockets.get(id);
  if (!entry) return;
  const last = entry.queue.length > entry.head ? entry.queue[entry.queue.length - 1][1] : 0;
  entry.queue.push([text, Math.max(due, last), closeCode, due > 0]);
  if (entry.timer === undefined) pump(entry);
}

const operations = {
  open,
  send: enqueue,
  close: (id, code) => enqueue(id, undefined, 0, code),
  terminate(id) {
    const entry = sockets.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.queue.length = 0;
    entry.head = 0;
    entry.ws.terminate();
  },
  ping(id) {
    const entry = sockets.get(id);
    if (entry?.ws.readyState === WebSocket.OPEN) entry.ws.ping();
    else tell(["pong", id]);
  },
  pause(id) {
    const entry = sockets.get(id);
    if (!entry) return;
    entry.heldByMain = true;
    reading(entry);
  },
  resume(id) {
    const entry = sockets.get(id);
    if (!entry) return;
    entry.heldByMain = false;
    reading(entry);
  },
  /** The main thread took `bytes` of the app's messages: reading may go on. */
  taken(id, bytes) {
    const entry = sockets.get(id);
    if (!entry) return;
    entry.unread -= bytes;
    reading(entry);
  },
};

parentPort.on("message", (batch) => {
  for (const [op, id, ...args] of batch) {
    try {
      operations[op](id, ...args);
    } catch (error) {
      // One socket's trouble is that socket's alone: it closes as broken, the thread's other sockets go on.
      tell(["error", id, error.message]);
      sockets.get(id)?.ws.terminate();
    }
  }
});

// Bytes waiting to leave and late frames, told when they change: the main thread drops frames for a slow app.
setInterval(() => {
  for (const [id, entry] of sockets) {
    const { told } = entry;
    const buffered = entry.ws.bufferedAmount;
    if (buffered === told.buffered && entry.taken === told.taken && entry.late === told.late) continue;
    entry.told = { buffered, taken: entry.taken, late: entry.late };
    tell(["stats", id, buffered, entry.taken, entry.late]);
  }
}, statsEveryMs).unref();
