// The node:http door: IncomingMessage to a plain request, a plain response back to ServerResponse.

import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Handle } from "../http/handle.js";
import { bodyLimitBytes, ndjsonMediaType, type SandboxRequest, type SandboxResponse } from "../http/types.js";

const noBody = { body: "", tooLarge: false };
const emptyBody = Promise.resolve(noBody);

/** A request that announces no body (no length, no chunked encoding), as most GETs and DELETEs do. */
const hasNoBody = (req: IncomingMessage) =>
  (req.headers["content-length"] === undefined || req.headers["content-length"] === "0") &&
  req.headers["transfer-encoding"] === undefined;

/** Reads the body up to the limit; past it, stops keeping bytes and marks the request. */
export function readBody(
  req: IncomingMessage,
  limit = bodyLimitBytes,
): Promise<{ body: string; tooLarge: boolean }> {
  if (hasNoBody(req)) {
    // Let the empty stream end on its own; no listeners, no buffering on the hot path.
    req.resume();
    return emptyBody;
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      // A form POST's body is one chunk: read it as it came, without copying it into a new buffer first.
      const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      resolve({ body: tooLarge ? "" : whole.toString("utf8"), tooLarge });
    });
    req.on("error", reject);
  });
}

/** An NDJSON body is left unread, for a route that streams it (a state import can be larger than memory allows as one string). */
export const streamsBody = (req: IncomingMessage) =>
  (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase() === ndjsonMediaType;

/**
 * Reads the body, or leaves an NDJSON body to be streamed. A request that announces no body (most GETs) is
 * returned at once, not as a promise: there is nothing to wait for.
 */
export function readRequest(req: IncomingMessage, url?: string): SandboxRequest | Promise<SandboxRequest> {
  if (streamsBody(req)) return { ...toSandboxRequest(req, "", false, url), bodyStream: req };
  if (hasNoBody(req)) {
    // Let the empty stream end on its own, as readBody does.
    req.resume();
    return toSandboxRequest(req, "", false, url);
  }
  return readBody(req).then(({ body, tooLarge }) => toSandboxRequest(req, body, tooLarge, url));
}

export function toSandboxRequest(
  req: IncomingMessage,
  body: string,
  tooLarge: boolean,
  url: string = req.url ?? "/",
): SandboxRequest {
  const q = url.indexOf("?");
  // Node already lower-cases names and joins repeated request headers; only set-cookie stays an array.
  let headers = req.headers as Record<string, string>;
  if (req.headers["set-cookie"] !== undefined) {
    headers = { ...headers, "set-cookie": (req.headers["set-cookie"] as string[]).join(", ") };
  }
  return {
    method: req.method ?? "GET",
    path: q < 0 ? url : url.slice(0, q),
    query: q < 0 ? "" : url.slice(q + 1),
    headers,
    body,
    ...(tooLarge ? { bodyTooLarge: true } : {}),
  };
}

export async function writeResponse(res: ServerResponse, response: SandboxResponse): Promise<void> {
  if (response.stream) {
    res.writeHead(response.status, response.headers);
    try {
      for await (const piece of response.stream) {
        // Backpressure: a slow reader holds the stream, not the server's memory.
        if (!res.write(piece)) await once(res, "drain");
      }
      res.end();
    } catch {
      res.destroy();
    }
    return;
  }
  const body = response.body;
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  res.writeHead(response.status, { ...response.headers, "content-length": length });
  res.end(body);
}

/** A `(req, res)` listener for node:http serving the sandbox. */
export function createNodeListener(handle: Handle) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const read = readRequest(req);
      const request = read instanceof Promise ? await read : read;
      await writeResponse(res, await handle(request));
    } catch {
      if (!res.headersSent) {
        res.statusCode = 400;
        res.end();
      }
    }
  };
}
