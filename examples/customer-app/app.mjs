// A small customer app for the scenario demo: an IVR on plain node:http that checks each request's signature.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

/** Twilio's algorithm: base64 HMAC-SHA1 of the full URL followed by each POST parameter, sorted by name. */
function expectedSignature(authToken, url, params) {
  const data = Object.keys(params)
    .sort()
    .reduce((text, name) => text + name + params[name], url);
  return createHmac("sha1", authToken).update(data).digest("base64");
}

function validSignature(authToken, header, url, params) {
  if (!header) return false;
  const expected = Buffer.from(expectedSignature(authToken, url, params));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const xml = (body) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

/** What each path answers, given the request's form parameters. */
const routes = {
  "/voice": () =>
    xml(
      '<Gather numDigits="1" action="/voice/menu" timeout="6">' +
        "<Say>Welcome to Acme. For opening hours press 1. To leave a message press 2.</Say>" +
        "</Gather><Say>Goodbye</Say>",
    ),
  "/voice/menu": (params) => {
    if (params.Digits === "1") return xml("<Say>We are open nine to five, Monday to Friday.</Say><Hangup/>");
    if (params.Digits === "2")
      return xml(
        "<Say>Please leave your message after the beep.</Say>" +
          '<Record maxLength="60" action="/voice/recorded" transcribe="true" transcribeCallback="/transcriptions"/>',
      );
    return xml("<Say>Sorry, that is not an option.</Say><Redirect>/voice</Redirect>");
  },
  "/voice/recorded": () => xml("<Say>Thank you, goodbye.</Say><Hangup/>"),
  // Callbacks: remembered, answered with an empty 204.
  "/status": () => null,
  "/transcriptions": () => null,
};

/**
 * Starts the app. `authToken` checks signatures (the sandbox signs with the account's token);
 * `publicUrl` is the base URL the sandbox was given (--target), since the signature covers it.
 */
export function startCustomerApp({ port = 0, host = "127.0.0.1", authToken, publicUrl } = {}) {
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
      const base = publicUrl ?? `http://${request.headers.host}`;
      if (authToken && !validSignature(authToken, request.headers["x-twilio-signature"], base + request.url, params)) {
        response.writeHead(403, { "content-type": "text/plain" }).end("bad signature");
        return;
      }
      received.push({ path, params });
      const route = routes[path];
      if (!route) {
        response.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const answer = route(params);
      if (answer === null) response.writeHead(204).end();
      else response.writeHead(200, { "content-type": "text/xml" }).end(answer);
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

// `node examples/customer-app/app.mjs`: listen on PORT (default 3000) and print the target to use.
if (import.meta.url === `file://${process.argv[1]}`) {
  const app = await startCustomerApp({
    port: Number(process.env.PORT ?? 3000),
    authToken: process.env.AUTH_TOKEN ?? "acme_auth_token_1111111111111111",
  });
  console.log(`customer app on ${app.url}; run: npx voice-sandbox run scenarios/customer-app-ivr.yaml --target ${app.url}`);
}
