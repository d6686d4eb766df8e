// Around the core: applies injected HTTP faults to API requests and records every request in the journal.
import { errors } from "../domain/errors.js";
import { startStopwatch, waitRealTime } from "../engine/time/clock.js";
import { errorCodeOf, excerptOf } from "./journal-excerpt.js";
import type { Principal } from "./principal.js";
import { renderError } from "./render-error.js";
import type { RouteServices } from "./route.js";
import type { SandboxRequest, SandboxResponse, Surface } from "./types.js";

/** What the core learns about a request while serving it, for the journal. */
export interface RequestTrace {
  surface: Surface;
  accountSid: string | null;
}

export type ServeTraced = (request: SandboxRequest, trace: RequestTrace) => Promise<SandboxResponse>;

/** The account a request acted as (its credentials) or on (its path), if any. */
export function accountOf(principal: Principal, params: Record<string, string>): string | null {
  if (principal.kind === "account" || principal.kind === "api-key" || principal.kind === "account-test")
    return principal.accountSid;
  return params.AccountSid ?? params.account_id ?? null;
}

/**
 * Reads of the admin API (GET /__sandbox/...) are not journaled: polling the journal or the state would
 * otherwise push the requests being inspected out of the ring.
 */
const journaled = (surface: Surface, method: string) => surface !== "admin" || method !== "GET";

export function observeRequests(
  serve: ServeTraced,
  services: RouteServices,
  surfaceOf: (path: string) => Surface,
): (request: SandboxRequest) => Promise<SandboxResponse> {
  return async (request) => {
    const elapsed = startStopwatch();
    const { clock, faults } = services.context;
    const arrived = clock.now();
    const trace: RequestTrace = { surface: surfaceOf(request.path), accountSid: null };
    const method = request.method.toUpperCase();
    // Faults shape the account and carrier APIs only: the admin API must stay usable to remove them.
    const fault =
      trace.surface !== "admin" && faults ? faults.takeHttp(method, request.path, arrived) : undefined;
    if (fault?.delay_ms) await waitRealTime(fault.delay_ms);
    const response =
      fault?.status !== undefined
        ? renderError(
            trace.surface,
            errors.injectedFault(fault.status, fault.id, fault.message),
            request.path,
          )
        : await serve(request, trace);

    const journal = services.journal;
    if (journal && journaled(trace.surface, method)) {
      journal.record({
        at: arrived,
        method,
        path: request.path,
        query: request.query,
        surface: trace.surface,
        status: response.status,
        latency_ms: elapsed(),
        account_sid: trace.accountSid,
        fault: fault
          ? {
              id: fault.id,
              ...(fault.status !== undefined ? { status: fault.status } : {}),
              ...(fault.delay_ms !== undefined ? { delay_ms: fault.delay_ms } : {}),
            }
          : null,
        request_body: excerptOf(request.body),
        response_body: excerptOf(response.body),
        error_code: errorCodeOf(response),
      });
    }
    return response;
  };
}
