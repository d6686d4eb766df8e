// A frame sender: a worker thread that holds real-clock media streams' sockets to their apps and sends each
// message when it is due, so a busy main thread (API, engine) delays no frame already handed over.
// Plain JavaScript: it runs as it is from the sources and from the package (frame-senders.ts starts it).
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";

const WebSocket = createRequire(import.meta.url)(workerData.wsPath);
/** A frame sent this much after its instant is late (what the main thread counted before, frame-senders.ts). */
const lateAfterMs = workerData.lateAfterMs;
/** How often the sockets' figures (bytes waiting, late frames) are told when they changed. */
const statsEveryMs = 100;

/** Socket id -> { ws, queue of [text, due, closeCode] from `head`, timer, late, and the figures last told } */
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

function open(id, url, headers, maxPayload, handshakeTimeout) {
  const ws = new WebSocket(url, { headers, maxPayload, handshakeTimeout, perMessageDeflate: false });
  const entry = { ws, queue: [], head: 0, timer: undefined, late: 0, toldBuffered: 0, toldLate: 0 };
  sockets.set(id, entry);
  ws.on("open", () => tell(["open", id]));
  ws.on("unexpected-response", (request, response) => {
    request.destroy();
    tell(["refused", id, response.statusCode ?? 0]);
  });
  ws.on("error", (error) => tell(["error", id, error.message]));
  ws.on("message", (data, isBinary) => tell(["message", id, isBinary ? null : data.toString()]));
  ws.on("close", (code, reason) => {
    clearTimeout(entry.timer);
    sockets.delete(id);
    tell(["stats", id, 0, entry.late]);
    tell(["close", id, code, reason.toString()]);
  });
}

/** Sends what is due, in order; the first message not yet due sets the timer. */
function pump(entry) {
  entry.timer = undefined;
  const { ws, queue } = entry;
  const now = Date.now();
  while (entry.head < queue.length) {
    const [text, due, closeCode] = queue[entry.head];
    if (due > now) {
      entry.timer = setTimeout(pump, due - now, entry);
      break;
    }
    entry.head++;
    if (closeCode !== undefined) ws.close(closeCode);
    else if (ws.readyState === WebSocket.OPEN) {
      ws.send(text);
      if (due > 0 && now - due > lateAfterMs) entry.late++;
    }
  }
  if (entry.head === queue.length) {
    queue.length = 0;
    entry.head = 0;
  } else if (entry.head > 1024) {
    queue.splice(0, entry.head);
    entry.head = 0;
  }
}

/** A message joins its socket's queue behind the ones before it; `due` 0: as soon as they have gone. */
function enqueue(id, text, due, closeCode) {
  const entry = sockets.get(id);
  if (!entry) return;
  const last = entry.queue.length > entry.head ? entry.queue[entry.queue.length - 1][1] : 0;
  entry.queue.push([text, Math.max(due, last), closeCode]);
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
    entry.queue.length = 0;
    entry.head = 0;
    entry.ws.terminate();
  },
  pause: (id) => sockets.get(id)?.ws.pause(),
  resume: (id) => sockets.get(id)?.ws.resume(),
};

parentPort.on("message", (batch) => {
  for (const [op, ...args] of batch) operations[op](...args);
});

// Bytes waiting to leave and late frames, told when they change: the main thread drops frames for a slow app.
setInterval(() => {
  for (const [id, entry] of sockets) {
    const buffered = entry.ws.bufferedAmount;
    if (buffered === entry.toldBuffered && entry.late === entry.toldLate) continue;
    entry.toldBuffered = buffered;
    entry.toldLate = entry.late;
    tell(["stats", id, buffered, entry.late]);
  }
}, statsEveryMs).unref();
