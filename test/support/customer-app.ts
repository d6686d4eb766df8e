// A real local HTTP app standing in for the customer's: serves markup per path and records every request it gets.
import { createServer } from "node:http";
import express from "express";
import { listenLocally } from "./local-server.js";

export interface ReceivedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  signature: string | undefined;
  /** The `Cookie` header sent, if any. */
  cookie: string | undefined;
}

export type Answer =
  | string
  | { status: number; body?: string; contentType?: string; headers?: Record<string, string | string[]> };
export type Handler = (params: Record<string, string>, request: ReceivedRequest) => Answer;

export interface CustomerApp {
  readonly base: string;
  url(path: string): string;
  /** Answers requests to `path` (markup, or an empty 200 for callbacks when no handler is set). */
  on(path: string, handler: Handler | Answer): void;
  /** Every request received, oldest first; `path` narrows them. */
  received(path?: string): ReceivedRequest[];
  clear(): void;
  close(): Promise<void>;
}

export async function startCustomerApp(): Promise<CustomerApp> {
  const handlers = new Map<string, Handler>();
  let log: ReceivedRequest[] = [];
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.use((req, res) => {
    const params = { ...(req.method === "GET" ? req.query : req.body) } as Record<string, string>;
    const entry: ReceivedRequest = {
      method: req.method,
      path: req.path,
      params,
      signature: req.header("x-twilio-signature"),
      cookie: req.header("cookie"),
    };
    log.push(entry);
    const handler = handlers.get(req.path);
    const answer: Answer = handler ? handler(params, entry) : "";
    if (typeof answer === "string") {
      res.status(200).type("text/xml").send(answer);
    } else {
      for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
      res
        .status(answer.status)
        .type(answer.contentType ?? "text/xml")
        .send(answer.body ?? "");
    }
  });
  const { base, close } = await listenLocally(createServer(app));
  return {
    base,
    url: (path) => base + path,
    on(path, handler) {
      handlers.set(path, typeof handler === "function" ? handler : () => handler);
    },
    received: (path) => (path === undefined ? [...log] : log.filter((r) => r.path === path)),
    clear() {
      handlers.clear();
      log = [];
    },
    close,
  };
}
