// No state change from another site: a request that changes the sandbox must not come from another site's page,
// and must carry a body type no page can send without asking first (a CORS preflight, which is never granted).
import { errors } from "../domain/errors.js";
import { mediaType } from "./params.js";
import type { AnyRoute } from "./route.js";
import type { SandboxRequest } from "./types.js";

/** What every state-changing admin and inspector request carries when it has no body of its own. */
export const jsonMediaType = "application/json";

/**
 * The body types a page may send to another origin without a preflight (the CORS-safelisted
 * `Content-Type` values): a route that changes state never takes one.
 */
const simpleMediaTypes = new Set(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]);

/** True for a route the cross-site rule guards: every admin route but a read. */
export const changesState = (route: AnyRoute): boolean => route.surface === "admin" && route.method !== "GET";

/** The body types a state-changing admin route takes: its own list, else JSON (and the type it streams). */
export function bodyTypesOf(route: AnyRoute): readonly string[] {
  if (route.bodyTypes) return route.bodyTypes;
  return route.streamsBody ? [jsonMediaType, route.streamsBody] : [jsonMediaType];
}

/** `a` or `a, b or c`. */
const listed = (types: readonly string[]) =>
  types.length === 1 ? types[0]! : `${types.slice(0, -1).join(", ")} or ${types.at(-1)}`;

/** An authority (`host[:port]`) as a URL of `protocol` normalises it, or null when it does not parse. */
function authorityOf(protocol: string, authority: string): string | null {
  try {
    return new URL(`${protocol}//${authority}`).host;
  } catch {
    return null;
  }
}

/**
 * True when `origin` is this server's own: its host and port are the request's `Host` (or, behind a proxy
 * that rewrites it, the `X-Forwarded-Host` the proxy was asked for). `null` (a sandboxed frame, a file) never is.
 */
function isOwnOrigin(origin: string, headers: Record<string, string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === "null") return false;
  const own = [headers.host, headers["x-forwarded-host"]?.split(",")[0]?.trim()];
  return own.some((authority) => authority && authorityOf(url.protocol, authority) === url.host);
}

/**
 * Throws the admin error (403) for a request a browser marks as coming from another site: the rule for every
 * state-changing request and for the inspector's WebSockets (a browser sends `Origin` on every WebSocket
 * handshake, and no page can leave it out). Tools (curl, scripts, the library's doors) send neither header and pass.
 */
export function refuseOtherSite(request: SandboxRequest): void {
  const what = `${request.method.toUpperCase()} ${request.path}`;
  const site = request.headers["sec-fetch-site"]?.trim().toLowerCase();
  if (site === "cross-site" || site === "same-site") {
    throw errors.forbidden(
      `${what} changes the sandbox, so it is refused from another site's page (Sec-Fetch-Site: ${site}). ` +
        "Send it from a tool (curl, a script, the library), which sends no Sec-Fetch-Site, or from the inspector on this server.",
    );
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, request.headers)) {
    throw errors.forbidden(
      `${what} changes the sandbox, so it is refused from another origin's page (Origin: ${origin}, ` +
        `not this server's ${request.headers.host ?? "own"}). Send it from a tool (curl, a script, the library), ` +
        "which sends no Origin, or from the inspector on this server.",
    );
  }
}

/**
 * Throws the admin error (403) for a request a browser marks as coming from another site, and 415 for a body
 * type other than `bodyTypes`, an empty body included: `Content-Type` must name one of them even then.
 * Requests from tools (curl, scripts, the library's doors) carry no `Origin` or `Sec-Fetch-Site` and pass.
 */
export function refuseCrossSite(request: SandboxRequest, bodyTypes: readonly string[]): void {
  refuseOtherSite(request);
  const what = `${request.method.toUpperCase()} ${request.path}`;
  const type = mediaType(request.headers["content-type"]);
  if (bodyTypes.includes(type) && !simpleMediaTypes.has(type)) return;
  const empty = request.body === "" && !request.bodyStream;
  throw errors.unsupportedMediaType(
    empty
      ? `${what} changes the sandbox: send Content-Type: ${bodyTypes[0]} even with no body (an empty body is fine), ` +
          `as curl -X ${request.method.toUpperCase()} <server>${request.path} -H 'content-type: ${bodyTypes[0]}' does ` +
          `(got ${type || "no Content-Type"}).`
      : `${what} takes a body of type ${listed(bodyTypes)} (got ${type || "no Content-Type"}).`,
  );
}
