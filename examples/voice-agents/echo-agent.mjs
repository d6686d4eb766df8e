// An example media-stream agent: answers calls with <Connect><Stream>, plays the caller's words back, and marks each echo.
import { createServer } from "node:http";
import { WebSocketServer } from "ws";
import { listen } from "./listen.mjs";

/** 20 ms of mu-law silence, as the sandbox sends it between the caller's words. */
const silence = Buffer.alloc(160, 0xff).toString("base64");

/**
 * Starts the agent on a free loopback port. `/voice` answers the call with a bidirectional stream to
 * `/media`; the socket echoes every frame of the caller's voice, sends a mark (`echo-1`, `echo-2`, ...)
 * when an utterance ends, and hangs up the stream when the caller presses `#`. `events` lists what the
 * agent saw: start (with its custom parameters), dtmf, the marks coming back once the echo played, stop.
 */
export async function startEchoAgent({ port = 0, host = "127.0.0.1" } = {}) {
  const events = [];
  const server = createServer((request, response) => {
    const media = `ws://${request.headers.host}/media`;
    response.writeHead(200, { "content-type": "text/xml" });
    response.end(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="${media}"><Parameter name="agent" value="echo"/></Stream></Connect><Say>Echo finished, goodbye</Say></Response>`,
    );
  });
  const sockets = new WebSocketServer({ server, path: "/media" });
  sockets.on("connection", (socket) => {
    let streamSid = "";
    let echoing = 0;
    let marks = 0;
    const send = (message) => socket.send(JSON.stringify({ ...message, streamSid }));
    socket.on("message", (data) => {
      const message = JSON.parse(data.toString());
      if (message.event === "start") {
        streamSid = message.streamSid;
        events.push({ event: "start", customParameters: message.start.customParameters });
      } else if (message.event === "media") {
        if (message.media.payload !== silence) {
          echoing++;
          send({ event: "media", media: { payload: message.media.payload } });
        } else if (echoing > 0) {
          echoing = 0;
          send({ event: "mark", mark: { name: `echo-${++marks}` } });
        }
      } else if (message.event === "mark") {
        events.push({ event: "mark", name: message.mark.name });
      } else if (message.event === "dtmf") {
        events.push({ event: "dtmf", digit: message.dtmf.digit });
        if (message.dtmf.digit === "#") socket.close();
      } else if (message.event === "stop") {
        events.push({ event: "stop" });
      }
    });
  });
  return { ...(await listen(server, sockets, { port, host })), events };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const agent = await startEchoAgent({ port: Number(process.env.PORT ?? 3002) });
  console.log(`echo agent: voice URL ${agent.url()}`);
}
