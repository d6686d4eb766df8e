// The agent under test: a media-stream voice agent built the way most are, with its own turn detection, a think time and barge-in.
import { createServer } from "node:http";
import { WebSocketServer } from "ws";
import { listen } from "../voice-agents/listen.mjs";

/** 20 ms of mu-law silence, as the sandbox sends it when the caller is quiet. */
const silence = Buffer.alloc(160, 0xff).toString("base64");
/** 20 ms of the agent's "voice": a steady mu-law level, loud enough to count as speech. */
const voice = Buffer.alloc(160, 0x10).toString("base64");

/** The caller's turn is over after this much silence (15 frames). */
const endOfTurnFrames = 15;
/** Each answer: 1.2 s of voice. */
const answerFrames = 60;

/**
 * Starts the agent on a free loopback port. `/voice` answers the call with a bidirectional stream to
 * `/media`. On the socket the agent waits for the caller's words, takes the turn as over after 300 ms of
 * silence, thinks for `think()` ms of real time (where a speech-to-text, a language model and a
 * text-to-speech would run), then plays its answer with a mark after it. If the caller talks over the
 * answer for `stopAfterMs` (200 ms) it sends `clear` and listens again; shorter sounds ("uh-huh") it talks
 * through. (`Infinity` makes an agent that never stops: the scenarios' barge-in gate catches it.)
 */
export async function startAgent({
  port = 0,
  host = "127.0.0.1",
  think = () => Math.random() * 300,
  stopAfterMs = 200,
} = {}) {
  const bargeInFrames = stopAfterMs / 20;
  const server = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/xml" });
    response.end(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="ws://${request.headers.host}/media"/></Connect><Say>Goodbye</Say></Response>`,
    );
  });
  const sockets = new WebSocketServer({ server, path: "/media" });
  sockets.on("connection", (socket) => {
    let streamSid = "";
    let heard = false;
    let quiet = 0;
    let overTalk = 0;
    let playing = false;
    let answers = 0;
    const send = (message) => socket.send(JSON.stringify({ ...message, streamSid }));
    const answer = () => {
      playing = true;
      answers += 1;
      for (let i = 0; i < answerFrames; i++) send({ event: "media", media: { payload: voice } });
      send({ event: "mark", mark: { name: `answer-${answers}` } });
    };
    socket.on("message", (data) => {
      const message = JSON.parse(data.toString());
      if (message.event === "start") streamSid = message.streamSid;
      // The answer has played to its end.
      if (message.event === "mark") playing = false;
      if (message.event !== "media") return;
      const voiced = message.media.payload !== silence;
      if (playing) {
        overTalk = voiced ? overTalk + 1 : 0;
        if (overTalk < bargeInFrames) return;
        // Barge-in: stop talking and hear the caller out.
        send({ event: "clear" });
        playing = false;
        overTalk = 0;
        heard = true;
        quiet = 0;
        return;
      }
      if (voiced) {
        heard = true;
        quiet = 0;
        return;
      }
      if (!heard || ++quiet < endOfTurnFrames) return;
      heard = false;
      setTimeout(() => socket.readyState === socket.OPEN && answer(), think());
    });
  });
  return listen(server, sockets, { port, host });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const agent = await startAgent({ port: Number(process.env.PORT ?? 3004) });
  console.log(`agent under test: voice URL ${agent.url()}`);
}
