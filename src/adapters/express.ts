// The Express door: one middleware on the node adapter. No Express routing or body parsers on the API path.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Handle } from "../http/handle.js";
import { readRequest, toSandboxRequest, writeResponse } from "./node.js";

/** Path prefixes the sandbox answers; everything else goes to the next middleware. */
export const sandboxPrefixes = ["/2010-04-01/", "/carrier/", "/__sandbox/"] as const;

/** A path under a prefix, or the prefix's own root without its slash (`/__sandbox`, `/carrier?x`). */
export const isSandboxPath = (url: string | undefined) =>
  url !== undefined &&
  sandboxPrefixes.some((prefix) => {
    const root = prefix.slice(0, -1);
    return url.startsWith(prefix) || url === root || url.startsWith(`${root}?`);
  });

type ExpressRequest = IncomingMessage & { body?: unknown; originalUrl?: string };
type Next = (error?: unknown) => void;

/** A body an upstream parser (express.json(), express.urlencoded()) already read, turned back into text. */
function consumedBody(req: ExpressRequest): string | undefined {
  if (!req.readableEnded || req.body === undefined) return undefined;
  const body = req.body;
  if (typeof body === "string") return body;
  if (Buffer.isBuffer(body)) return body.toString("utf8");
  const contentType = String(req.headers["content-type"] ?? "");
  if (contentType.includes("x-www-form-urlencoded") && body && typeof body === "object") {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
    }
    return params.toString();
  }
  return JSON.stringify(body);
}

/** Express 5 middleware: `app.use(createExpressMiddleware(handle))`. */
export function createExpressMiddleware(handle: Handle) {
  return async (req: ExpressRequest, res: ServerResponse, next: Next): Promise<void> => {
    const url = req.originalUrl ?? req.url;
    if (!isSandboxPath(url)) {
      next();
      return;
    }
    try {
      const already = consumedBody(req);
      // Mounted under a sub-path, Express trims req.url; the sandbox routes on the full path.
      const request =
        already !== undefined ? toSandboxRequest(req, already, false, url) : await readRequest(req, url);
      await writeResponse(res, await handle(request));
    } catch (error) {
      next(error);
    }
  };
}
