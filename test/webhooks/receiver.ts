// A real local HTTP receiver for webhook tests: records every request and checks it with the official twilio validator.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import twilio from "twilio";
import { listenLocally } from "../support/local-server.js";

export interface ReceivedRequest {
  method: string;
  /** The full URL as the receiver reconstructs it (http://127.0.0.1:<port><path>). */
  url: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** Form parameters (POST body); empty for GET. */
  params: Record<string, string>;
  /** twilio.validateRequest(token, X-Twilio-Signature, url, params). */
  acceptedByTwilio: boolean;
}

/** What the receiver does with one request: answer, reset the connection, or never answer. */
export type Behaviour =
  | {
      status: number;
      body?: string | undefined;
      headers?: Record<string, string> | undefined;
      delayMs?: number;
    }
  | "reset"
  | "hang";

export interface Receiver {
  readonly base: string;
  readonly requests: ReceivedRequest[];
  /** Sets how the next requests are answered (by default 200, empty body). */
  behave(next: (request: ReceivedRequest, index: number) => Behaviour): void;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(authToken: string): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let behaviour: (request: ReceivedRequest, index: number) => Behaviour = () => ({ status: 200 });
  const waiters: { count: number; resolve: () => void }[] = [];
  const hanging: ServerResponse[] = [];
  let base = "";

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const url = base + (req.url ?? "/");
      const params = req.method === "POST" ? Object.fromEntries(new URLSearchParams(body)) : {};
      const signature = String(req.headers["x-twilio-signature"] ?? "");
      const received: ReceivedRequest = {
        method: req.method ?? "",
        url,
        path: req.url ?? "/",
        headers: req.headers,
        body,
        params,
        acceptedByTwilio: twilio.validateRequest(authToken, signature, url, params),
      };
      const index = requests.push(received) - 1;
      for (const waiter of [...waiters]) {
        if (requests.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      const answer = behaviour(received, index);
      if (answer === "reset") {
        req.socket.destroy();
        return;
      }
      if (answer === "hang") {
        hanging.push(res);
        return;
      }
      const send = () => {
        res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
        res.end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  const listening = await listenLocally(server);
  base = listening.base;

  return {
    base,
    requests,
    behave(next) {
      behaviour = next;
    },
    waitFor(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close() {
      for (const res of hanging) res.destroy();
      return listening.close();
    },
  };
}

/** A port nothing listens on: one a server just gave back. */
export async function closedPort(): Promise<number> {
  const { base, close } = await listenLocally(createServer());
  await close();
  return Number(new URL(base).port);
}
