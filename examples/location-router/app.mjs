// An example app that routes calls on the caller's state and counts a texter's messages with a cookie.
import { createServer } from "node:http";

const xml = (body) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;
const escape = (text) => text.replace(/[<>&]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;" })[c]);

/** Which desk answers callers from which states (the location parameters Twilio sends on every call). */
const westCoast = new Set(["CA", "OR", "WA", "NV"]);
const eastCoast = new Set(["NY", "NJ", "MA", "CT", "PA"]);

function voice(params) {
  const where = params.FromCity ? ` in ${params.FromCity}` : "";
  if (westCoast.has(params.FromState)) return xml(`<Say>Hello caller${escape(where)}. Connecting you to our West Coast desk.</Say>`);
  if (eastCoast.has(params.FromState)) return xml(`<Say>Hello caller${escape(where)}. Connecting you to our East Coast desk.</Say>`);
  return xml("<Say>Hello. Connecting you to our main desk.</Say>");
}

/** The conversation's message count lives in a cookie, which Twilio keeps per number pair for four hours. */
function sms(params, cookieHeader) {
  const previous = Number(/(?:^|;\s*)count=(\d+)/.exec(cookieHeader ?? "")?.[1] ?? 0);
  const count = previous + 1;
  const text = count === 1 ? "Welcome! This is a new conversation." : `This is message ${count} of our conversation.`;
  return { body: xml(`<Message>${escape(text)}</Message>`), cookie: `count=${count}; Path=/; HttpOnly` };
}

/** Starts the app on a free loopback port; `received` lists each request's path, parameters and Cookie header. */
export function startLocationRouter({ port = 0, host = "127.0.0.1" } = {}) {
  const received = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://app.local").pathname;
      const params = Object.fromEntries(new URLSearchParams(body));
      received.push({ path, params, cookie: request.headers.cookie ?? null });
      if (path === "/voice") {
        response.writeHead(200, { "content-type": "text/xml" }).end(voice(params));
      } else if (path === "/sms") {
        const answer = sms(params, request.headers.cookie);
        response.writeHead(200, { "content-type": "text/xml", "set-cookie": answer.cookie }).end(answer.body);
      } else {
        response.writeHead(204).end();
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        url: `http://${host}:${address.port}`,
        received,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

// `node examples/location-router/app.mjs`: listen on PORT (default 3001) and print the target to use.
if (import.meta.url === `file://${process.argv[1]}`) {
  const app = await startLocationRouter({ port: Number(process.env.PORT ?? 3001) });
  console.log(`location router on ${app.url}; run: npx voice-sandbox run examples/location-router/scenario.yaml --target ${app.url}`);
}
