// The node:http door: IncomingMessage to a plain request, a plain response back to ServerResponse.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Handle } from "../http/handle.js";
import { bodyLimitBytes, type SandboxRequest, type SandboxResponse } from "../http/types.js";

/** Reads the body up to the limit; past it, stops keeping bytes and marks the request. */
export function readBody(
  req: IncomingMessage,
  limit = bodyLimitBytes,
): Promise<{ body: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve({ body: tooLarge ? "" : Buffer.concat(chunks).toString("utf8"), tooLarge }));
    req.on("error", reject);
  });
}

export function toSandboxRequest(
  req: IncomingMessage,
  body: string,
  tooLarge: boolean,
  url: string = req.url ?? "/",
): SandboxRequest {
  const q = url.indexOf("?");
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(", ") : value;
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

export function writeResponse(res: ServerResponse, response: SandboxResponse): void {
  const body = typeof response.body === "string" ? Buffer.from(response.body) : response.body;
  res.statusCode = response.status;
  for (const [key, value] of Object.entries(response.headers)) res.setHeader(key, value);
  res.setHeader("content-length", body.byteLength);
  res.end(body);
}

/** A `(req, res)` listener for node:http serving the sandbox. */
export function createNodeListener(handle: Handle) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const { body, tooLarge } = await readBody(req);
      writeResponse(res, await handle(toSandboxRequest(req, body, tooLarge)));
    } catch {
      if (!res.headersSent) {
        res.statusCode = 400;
        res.end();
      }
    }
  };
}
