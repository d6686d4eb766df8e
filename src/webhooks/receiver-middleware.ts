// Express-style middleware for customers' receivers: 403 unless the request carries a valid webhook signature.
import type { IncomingMessage, ServerResponse } from "node:http";
import { type SignedParams, validateSignature } from "./sign.js";

/** The request as Express (or plain node:http) hands it over; only these fields are read. */
export type ReceiverRequest = IncomingMessage & {
  body?: unknown;
  originalUrl?: string;
  protocol?: string;
};

export interface ReceiverMiddlewareOptions {
  /**
   * The account's auth token, or a function that finds it for the request (for example from its
   * `AccountSid` parameter); nothing found means 403.
   */
  authToken:
    | string
    | ((request: ReceiverRequest, params: SignedParams) => string | undefined | Promise<string | undefined>);
  /**
   * The public base URL the sandbox calls, when a proxy or tunnel stands in front
   * (`https://app.example.com`); the request's path and query are appended to it.
   */
  publicUrl?: string;
  /** Or the full URL that was signed, worked out from the request. */
  url?: (request: ReceiverRequest) => string;
  /** Overrides the protocol seen (default: Express's `req.protocol`, else the socket's). */
  protocol?: string;
  /** Overrides the Host header seen. */
  host?: string;
  /** Largest form body read when no body parser ran first. Default 1 MiB. */
  bodyLimit?: number;
}

type Next = (error?: unknown) => void;

/**
 * Checks `X-Vendor-Signature` (or `X-Twilio-Signature`) over the full URL and the form parameters.
 * Works with or without `express.urlencoded({ extended: false })` in front: without one it reads the
 * body itself and leaves the parsed parameters on `req.body` for the next handler.
 */
export function createWebhookReceiverMiddleware(options: ReceiverMiddlewareOptions) {
  return (request: ReceiverRequest, response: ServerResponse, next: Next): void => {
    verify(request, options).then(
      (valid) => {
        if (valid) return next();
        response.statusCode = 403;
        response.setHeader("content-type", "text/plain; charset=utf-8");
        response.end("Invalid webhook signature: X-Vendor-Signature does not match the URL and parameters");
      },
      (error: unknown) => next(error),
    );
  };
}

/** The verification on its own, for frameworks other than Express. */
export async function verify(request: ReceiverRequest, options: ReceiverMiddlewareOptions): Promise<boolean> {
  const header = request.headers["x-vendor-signature"] ?? request.headers["x-twilio-signature"];
  const signature = Array.isArray(header) ? header[0] : header;
  const params = await readParams(request, options.bodyLimit ?? 1_048_576);
  const token =
    typeof options.authToken === "string" ? options.authToken : await options.authToken(request, params);
  if (!token || !signature) return false;
  return validateSignature(token, signature, requestUrl(request, options), params);
}

function requestUrl(request: ReceiverRequest, options: ReceiverMiddlewareOptions): string {
  if (options.url) return options.url(request);
  const path = request.originalUrl ?? request.url ?? "/";
  if (options.publicUrl) return options.publicUrl.replace(/\/+$/, "") + path;
  const encrypted = (request.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  const protocol = options.protocol ?? request.protocol ?? (encrypted ? "https" : "http");
  const host = options.host ?? request.headers.host ?? "localhost";
  return `${protocol.replace(/:$/, "")}://${host}${path}`;
}

async function readParams(request: ReceiverRequest, limit: number): Promise<SignedParams> {
  if (request.method === "GET" || request.method === "HEAD") return {};
  if (request.body !== undefined && request.body !== null && typeof request.body === "object") {
    return request.body as SignedParams;
  }
  const contentType = String(request.headers["content-type"] ?? "");
  if (!contentType.startsWith("application/x-www-form-urlencoded")) return {};
  const raw = typeof request.body === "string" ? request.body : await readBody(request, limit);
  const params = formParams(raw);
  request.body = params;
  return params;
}

/** Repeated keys become arrays, as `express.urlencoded({ extended: false })` gives them. */
function formParams(raw: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(raw)) {
    const existing = params[name];
    if (existing === undefined) params[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else params[name] = [existing, value];
  }
  return params;
}

function readBody(request: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.destroy();
        reject(new Error(`webhook body over ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}
