// What an admin write did to the whole sandbox, told at info: a reset or restore, a clock change, a fault added or removed.
import type { SandboxRequest, SandboxResponse } from "../http/types.js";

interface ControlLogger {
  info(data: object, message: string): void;
}

/** The JSON body of a request or answer, or an empty object (these bodies are the sandbox's own, and small). */
function jsonOf(body: string | Uint8Array): Record<string, unknown> {
  if (typeof body !== "string" || body === "") return {};
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A fault as one phrase: what it matches and what it does, and for how long. */
function describeFault(fault: Record<string, unknown>): string {
  const what =
    fault.kind === "transcription"
      ? `transcriptions fail${fault.call_sid ? ` on call ${fault.call_sid}` : ""}`
      : fault.kind === "number"
        ? `calls to ${fault.number}: ${fault.outcome}`
        : `${fault.method ?? "*"} ${fault.path} -> ${[
            fault.status,
            fault.delay_ms !== undefined ? `after ${fault.delay_ms} ms` : undefined,
          ]
            .filter((part) => part !== undefined)
            .join(" ")}`;
  const limits = [
    fault.remaining !== undefined ? `${fault.remaining} use${fault.remaining === 1 ? "" : "s"}` : undefined,
    fault.until !== undefined ? `until ${fault.until}` : undefined,
  ].filter((part) => part !== undefined);
  return limits.length > 0 ? `${what} (${limits.join(", ")})` : what;
}

const faultPath = /^\/__sandbox\/faults\/([^/]+)$/;

/**
 * One info line for a successful reset, restore, clock change or fault change, read from the request and its
 * answer (nothing in the engine knows of it); nothing for any other request.
 */
export function logControl(request: SandboxRequest, response: SandboxResponse, logger: ControlLogger): void {
  if (response.status >= 300 || !request.path.startsWith("/__sandbox/")) return;
  const method = request.method.toUpperCase();
  if (method === "GET" || method === "HEAD") return;
  const path = request.path;
  if (method === "POST" && path === "/__sandbox/reset") {
    const to = jsonOf(response.body).reset === "empty" ? "empty" : "fixtures";
    logger.info({ reset: to }, to === "empty" ? "state reset to empty" : "state reset to the fixtures");
  } else if (method === "PUT" && path === "/__sandbox/state") {
    logger.info({ restored: true }, "state restored from a snapshot");
  } else if (method === "POST" && path.startsWith("/__sandbox/clock")) {
    const clock = jsonOf(response.body);
    const fields = { clock: clock.mode, now: clock.now };
    if (path === "/__sandbox/clock")
      logger.info(fields, `clock switched to ${clock.mode} time at ${clock.now}`);
    else if (path === "/__sandbox/clock/advance") {
      const by = jsonOf(request.body).by;
      logger.info({ ...fields, by }, `clock advanced by ${by} to ${clock.now}`);
    } else if (path === "/__sandbox/clock/run_until_idle")
      logger.info(fields, `clock ran until idle, now ${clock.now}`);
  } else if (method === "POST" && path === "/__sandbox/faults") {
    const fault = jsonOf(response.body);
    logger.info({ fault }, `fault ${fault.id} added: ${describeFault(fault)}`);
  } else if (method === "DELETE" && path === "/__sandbox/faults") {
    logger.info({ faults: "cleared" }, "every fault removed");
  } else if (method === "DELETE") {
    const id = faultPath.exec(path)?.[1];
    if (id) logger.info({ fault_id: id }, `fault ${id} removed`);
  }
}
