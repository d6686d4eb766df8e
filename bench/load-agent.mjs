// The load capacity benchmark's agent process: the example CI agent (examples/voice-agent-ci/agent.mjs), unchanged,
// behind a pass-through socket that counts the media frames the sandbox sends and how late each arrives.
import { performance } from "node:perf_hooks";
import { WebSocket, WebSocketServer } from "ws";
import { startAgent } from "../examples/voice-agent-ci/agent.mjs";

const agent = await startAgent();
const upstream = agent.socketUrl("/media");
const taps = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
await new Promise((resolve) => taps.once("listening", resolve));

let frames = 0;
/** Per frame, ms behind its place: its arrival against the stream's first frame's, less their timestamps' gap. */
let lateness = [];

taps.on("connection", (down) => {
  const up = new WebSocket(upstream, { perMessageDeflate: false });
  const queued = [];
  let first = null;
  up.on("open", () => {
    for (const text of queued.splice(0)) up.send(text);
  });
  up.on("message", (data) => {
    if (down.readyState === WebSocket.OPEN) down.send(String(data));
  });
  up.on("close", () => down.close());
  up.on("error", () => down.terminate());
  down.on("message", (data) => {
    const text = String(data);
    const message = JSON.parse(text);
    if (message.event === "media") {
      frames++;
      const now = performance.now();
      const timestamp = Number(message.media.timestamp);
      if (first === null) first = { now, timestamp };
      else lateness.push(Math.max(0, now - first.now - (timestamp - first.timestamp)));
    }
    if (up.readyState === WebSocket.OPEN) up.send(text);
    else if (up.readyState === WebSocket.CONNECTING) queued.push(text);
  });
  down.on("close", () => up.close());
  down.on("error", () => up.terminate());
});

const rank = (sorted, q) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length, Math.ceil(q * sorted.length)) - 1];

process.on("message", (message) => {
  if (message === "stats") {
    const sorted = lateness.sort((a, b) => a - b);
    process.send({
      frames,
      p50Ms: rank(sorted, 0.5),
      p99Ms: rank(sorted, 0.99),
      maxMs: sorted.at(-1) ?? null,
    });
    frames = 0;
    lateness = [];
  }
  if (message === "close") void agent.close().then(() => taps.close(() => process.exit(0)));
});
process.send({ url: `ws://127.0.0.1:${taps.address().port}` });
