// One line per request: method, path, status, error code and milliseconds; at info, except the inspector's own reads.
import type { IncomingMessage, ServerResponse } from "node:http";
import { startStopwatch } from "../engine/time/clock.js";
import type { Handle } from "../http/handle.js";
import { errorCodeOf } from "../http/journal-excerpt.js";
import type { SandboxRequest } from "../http/types.js";
import { inspectorClientHeader, inspectorPath } from "../inspector/paths.js";
import { logControl } from "./control-log.js";
import { docsPath } from "./docs-paths.js";

/** The logger methods the request lines need (pino's shape). */
export interface RequestLogger {
  debug(data: object, message: string): void;
  info(data: object, message: string): void;
  /** pino's: whether lines at `level` are written (when absent, every level is taken as on). */
  isLevelEnabled?(level: string): boolean;
}

const isRead = (method: string) => method === "GET" || method === "HEAD";

/**
 * Reads that are the inspector's own (its page, files, feed and the admin reads it polls, which carry the
 * inspector's header) and the API reference's pages: at debug, so an open inspector does not fill the
 * terminal. Everything else a client sends is at info, writes from the inspector included.
 */
export function requestLevel(
  method: string,
  path: string,
  headers: Record<string, unknown>,
): "debug" | "info" {
  if (!isRead(method.toUpperCase())) return "info";
  if (headers[inspectorClientHeader] !== undefined) return "debug";
  return path.startsWith(inspectorPath) || path.startsWith(docsPath) ? "debug" : "info";
}

/** `2.3` for 2.31 ms, `14` for 14.2: short, and exact enough to tell a slow answer. */
const shortMs = (ms: number) => (ms < 10 ? Math.round(ms * 10) / 10 : Math.round(ms));

function writeLine(
  logger: RequestLogger,
  level: "debug" | "info",
  line: { method: string; path: string; status: number; error_code: number | null; ms: number },
): void {
  const { method, path, status, error_code, ms } = line;
  const fields = {
    method,
    path,
    status,
    ...(error_code === null ? {} : { error_code }),
    latency_ms: ms,
  };
  logger[level](
    fields,
    `${method} ${path} ${status}${error_code === null ? "" : ` ${error_code}`} ${shortMs(ms)} ms`,
  );
}

/**
 * Logs each request the core answers (the account, carrier and admin APIs), and what a reset, a clock change
 * or a fault does. A request whose line would not be written is not timed; the level is asked per request, so
 * a change at run time takes effect at once.
 */
export function logRequests(handle: Handle, logger: RequestLogger): Handle {
  return async (request: SandboxRequest) => {
    // Info off means debug off too: at warn (the benchmarks' level) this is the one check per request.
    if (logger.isLevelEnabled?.("info") === false) return handle(request);
    const level = requestLevel(request.method, request.path, request.headers);
    if (logger.isLevelEnabled?.(level) === false) return handle(request);
    const elapsed = startStopwatch();
    const response = await handle(request);
    writeLine(logger, level, {
      method: request.method,
      path: request.path,
      status: response.status,
      error_code: errorCodeOf(response),
      ms: elapsed(),
    });
    if (level === "info") logControl(request, response, logger);
    return response;
  };
}

/**
 * Logs a request the pages answer (landing page, API reference, inspector, a path nothing serves) once its
 * response is done; the live feed's line comes when the browser leaves.
 */
export function logPageRequest(req: IncomingMessage, res: ServerResponse, logger: RequestLogger): void {
  if (logger.isLevelEnabled?.("info") === false) return;
  const method = req.method ?? "GET";
  const path = (req.url ?? "/").split("?")[0]!;
  const level = requestLevel(method, path, req.headers);
  if (logger.isLevelEnabled?.(level) === false) return;
  const elapsed = startStopwatch();
  res.once("close", () =>
    writeLine(logger, level, { method, path, status: res.statusCode, error_code: null, ms: elapsed() }),
  );
}
