// The streams benchmark's app, in a process of its own as a customer's app would be: a `ws` server that notes
// when each media message of each connection arrives, and tells the parent the jitter when asked.
import { createServer } from "node:http";
import { WebSocketServer } from "ws";

/** Twilio's frame interval; jitter is a frame's gap minus this. */
const frameMs = 20;
const server = createServer();
const wss = new WebSocketServer({ server, perMessageDeflate: false });
let arrivals = [];
wss.on("connection", (socket) => {
  const times = [];
  arrivals.push(times);
  socket.on("message", (data) => {
    if (data.includes('"media"')) times.push(performance.now());
  });
});

/** The 99th percentile of |gap - 20 ms| over every stream's frames, skipping each stream's first second. */
function p99Jitter() {
  const jitter = [];
  for (const times of arrivals) {
    for (let i = 51; i < times.length; i++) jitter.push(Math.abs(times[i] - times[i - 1] - frameMs));
  }
  jitter.sort((a, b) => a - b);
  return { p99: jitter[Math.floor(jitter.length * 0.99)] ?? null, frames: jitter.length };
}

process.on("message", (message) => {
  if (message !== "report") return;
  const report = p99Jitter();
  for (const client of wss.clients) client.terminate();
  arrivals = [];
  process.send(report);
});
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
