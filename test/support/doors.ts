// Runs the same tests through both doors: MSW in-process, and the Express middleware on a real port.
import { createServer } from "node:http";
import express from "express";
import { setupServer } from "msw/node";
import twilio from "twilio";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import {
  type CreateSandboxOptions,
  createExpressMiddleware,
  createMswHandlers,
  createSandbox,
  type Sandbox,
} from "../../src/index.js";
import { fixtures } from "./fixtures.js";
import { expectJsonApi } from "./jsonapi.js";
import { listenLocally } from "./local-server.js";
import { checkedHandle } from "./openapi-check.js";

export interface DoorContext {
  readonly sandbox: Sandbox;
  /** Base URL requests go to (MSW's intercepted host, or http://127.0.0.1:<port>). */
  readonly baseUrl: string;
  /** A twilio client pointed at this door, with the given credentials. */
  twilioClient(username?: string, password?: string): twilio.Twilio;
  /** A raw HTTP call through this door. */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
}

export interface CallOptions {
  auth?: { basic: [string, string] } | { bearer: string };
  form?: Record<string, string | string[]>;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies.
  json: any;
}

export type DoorName = "msw" | "express";
export const doorNames: DoorName[] = ["msw", "express"];

/**
 * Sets up a fresh sandbox behind the named door for a describe block; the sandbox is reset to its
 * fixtures before every test so tests stay independent.
 */
export function useDoor(
  name: DoorName,
  options: CreateSandboxOptions = {},
  /** Every response through the door is checked against the OpenAPI document (default on). */
  { checkResponses = process.env.VOICE_SANDBOX_CHECK_RESPONSES !== "0" } = {},
): DoorContext {
  let sandbox: Sandbox;
  let baseUrl = "";
  let stop: () => Promise<void> = async () => undefined;
  const mismatches: string[] = [];

  beforeAll(async () => {
    sandbox = createSandbox(options);
    const handle = checkResponses ? checkedHandle(sandbox.handle, mismatches) : sandbox.handle;
    if (name === "msw") {
      const server = setupServer(...createMswHandlers(handle, options.baseUrl ?? sandbox.baseUrl));
      server.listen({ onUnhandledRequest: "error" });
      baseUrl = sandbox.baseUrl;
      stop = async () => server.close();
    } else {
      const app = express();
      app.use(createExpressMiddleware(handle));
      const server = await listenLocally(createServer(app));
      baseUrl = server.base;
      stop = server.close;
    }
  });
  beforeEach(() => sandbox.reset());
  afterEach(() => {
    if (mismatches.length === 0) return;
    const found = mismatches.splice(0);
    throw new Error(`responses that do not match the OpenAPI document:\n${found.join("\n")}`);
  });
  afterAll(async () => stop());

  const call = async (method: string, path: string, opts: CallOptions = {}): Promise<CallResult> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.auth && "basic" in opts.auth) {
      headers.authorization = `Basic ${Buffer.from(opts.auth.basic.join(":")).toString("base64")}`;
    } else if (opts.auth && "bearer" in opts.auth) {
      headers.authorization = `Bearer ${opts.auth.bearer}`;
    }
    let body: string | undefined = opts.body;
    if (opts.form) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(opts.form)) {
        for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
      }
      body = params.toString();
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    } else if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] ??= "application/vnd.api+json";
    } else if (body === undefined && path.startsWith("/__sandbox/") && !["GET", "HEAD"].includes(method)) {
      // As curl is told to: an admin request that changes state names its body type even with no body.
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(baseUrl + path, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const result = { status: response.status, headers: response.headers, text, json };
    // Every carrier API response in the suite is checked against the official JSON:API schema.
    if (path.startsWith("/carrier/") && method.toUpperCase() !== "HEAD") expectJsonApi(result);
    return result;
  };

  return {
    get sandbox() {
      return sandbox;
    },
    get baseUrl() {
      return baseUrl;
    },
    twilioClient(username = fixtures.acme.sid, password = fixtures.acme.authToken) {
      const client = twilio(
        username,
        password,
        username.startsWith("AC") ? {} : { accountSid: fixtures.acme.sid },
      );
      client.api.baseUrl = baseUrl;
      return client;
    },
    call,
  };
}
