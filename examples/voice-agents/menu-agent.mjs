// An example ConversationRelay agent: a spoken menu (say billing or support, or press 1 or 2) that hands the caller over.
import { createServer } from "node:http";
import { WebSocketServer } from "ws";
import { listen } from "./listen.mjs";

const departments = { billing: "billing", support: "support", 1: "billing", 2: "support" };
const greeting = "Welcome to Acme. Say billing or support, or press 1 or 2.";

/** Stands in for a language model: answers after an await, as a real agent would. */
async function think(input) {
  await new Promise((resolve) => setImmediate(resolve));
  const word = Object.keys(departments).find((key) => input.toLowerCase().includes(key));
  return word ? departments[word] : null;
}

/**
 * Starts the agent on a free loopback port. `/voice` connects the call to `/relay` with a welcome
 * greeting; the agent answers each prompt or key with text tokens and, once it knows the department,
 * ends the session with it as `handoffData`; `/handoff` (the Connect action) says where the caller goes.
 * `transcript` lists what the caller said or pressed and what the agent answered.
 */
export async function startMenuAgent({ port = 0, host = "127.0.0.1" } = {}) {
  const transcript = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const url = new URL(request.url, `http://${request.headers.host}`);
      const base = `http://${request.headers.host}`;
      let markup = `<Connect action="${base}/handoff"><ConversationRelay url="ws://${request.headers.host}/relay" welcomeGreeting="${greeting}" dtmfDetection="true"/></Connect>`;
      if (url.pathname === "/handoff") {
        const params = new URLSearchParams(body);
        const department = JSON.parse(params.get("HandoffData") ?? "{}").department ?? "the operator";
        markup = `<Say>Connecting you to ${department}.</Say>`;
      }
      response.writeHead(200, { "content-type": "text/xml" });
      response.end(`<?xml version="1.0" encoding="UTF-8"?><Response>${markup}</Response>`);
    });
  });
  const sockets = new WebSocketServer({ server, path: "/relay" });
  sockets.on("connection", (socket) => {
    const say = (text) => {
      transcript.push({ agent: text });
      const words = text.split(" ");
      words.forEach((word, i) =>
        socket.send(JSON.stringify({ type: "text", token: i === 0 ? word : ` ${word}`, last: i === words.length - 1 })),
      );
    };
    const answer = async (input) => {
      const department = await think(input);
      if (!department) return say("Sorry, I did not get that. Say billing or support.");
      say(`Sure, ${department} it is.`);
      socket.send(JSON.stringify({ type: "end", handoffData: JSON.stringify({ department }) }));
    };
    socket.on("message", (data) => {
      const message = JSON.parse(data.toString());
      if (message.type === "prompt") {
        transcript.push({ caller: message.voicePrompt });
        void answer(message.voicePrompt);
      } else if (message.type === "dtmf") {
        transcript.push({ caller: `pressed ${message.digit}` });
        void answer(message.digit);
      }
    });
  });
  return { ...(await listen(server, sockets, { port, host })), transcript };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const agent = await startMenuAgent({ port: Number(process.env.PORT ?? 3003) });
  console.log(`menu agent: voice URL ${agent.url()}`);
}
