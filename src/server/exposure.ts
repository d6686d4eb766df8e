// Who may reach the sandbox: no admin API beyond loopback unprotected, no weak admin token, no foreign Host names.
import { isIP } from "node:net";
import { errors } from "../domain/errors.js";
import { type Handle, surfaceOf } from "../http/handle.js";
import { renderError } from "../http/render-error.js";

/** Refusal to start: the message says what is exposed and the two ways on. */
export class ExposureError extends Error {
  constructor(host: string) {
    super(
      `refusing to listen on ${host} without an admin token: anyone who reaches the port could read every ` +
        "credential (GET /__sandbox/state), reset the state or inject faults. Give --admin-token <token> " +
        "(VOICE_SANDBOX_ADMIN_TOKEN), or --insecure-admin (VOICE_SANDBOX_INSECURE_ADMIN=1) to run unprotected anyway.",
    );
    this.name = "ExposureError";
  }
}

const bare = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, "");

/** True for the names and addresses only this machine can reach: localhost, 127.0.0.0/8, ::1. */
export function isLoopback(host: string): boolean {
  const name = bare(host);
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (name === "::1" || name === "0:0:0:0:0:0:0:1") return true;
  const v4 = name.startsWith("::ffff:") ? name.slice(7) : name;
  return isIP(v4) === 4 && v4.startsWith("127.");
}

export interface ExposureOptions {
  host: string;
  adminToken?: string | undefined;
  /** The operator's explicit choice to listen beyond loopback with an open admin API. */
  insecureAdmin?: boolean | undefined;
}

/** Throws ExposureError when the admin API would be open to the network without the operator saying so. */
export function checkExposure({ host, adminToken, insecureAdmin }: ExposureOptions): void {
  checkAdminToken(adminToken);
  if (!isLoopback(host) && !adminToken && !insecureAdmin) throw new ExposureError(host);
}

/** The host name of a Host header (`localhost:4010`, `[::1]:4010`), or null when it does not parse. */
function hostNameOf(header: string): string | null {
  try {
    return bare(new URL(`http://${header}`).hostname);
  } catch {
    return null;
  }
}

/** Shortest admin token a server takes: a guessable token guards nothing. */
export const adminTokenMinLength = 16;

/** Throws an Error saying what is wrong with an admin token that guards nothing (blank, short, spaced). */
export function checkAdminToken(token: string | undefined): void {
  if (token === undefined || token === "") return;
  const problem =
    token.trim() === ""
      ? "is blank"
      : /[\s\p{Cc}]/u.test(token)
        ? "holds a space or a control character (a Bearer token cannot carry one)"
        : token.length < adminTokenMinLength
          ? `is ${token.length} character${token.length === 1 ? "" : "s"} long`
          : null;
  if (problem === null) return;
  throw new Error(
    `the admin token ${problem}: give --admin-token (VOICE_SANDBOX_ADMIN_TOKEN) at least ${adminTokenMinLength} ` +
      "characters with no spaces, e.g. the one --generate-admin-token makes, or leave it out on loopback",
  );
}

/**
 * One name of `--allowed-hosts`: a host name (any case) or address without scheme, port or path. Throws an Error
 * saying what is wrong.
 */
export function parseAllowedHost(value: string): string {
  const name = value.trim();
  if (
    !/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.?)$/.test(
      name,
    )
  )
    throw new Error(
      `${JSON.stringify(value)} is not a host name such as sandbox or tunnel.example.test (no scheme, port or path)`,
    );
  return bare(name).replace(/\.$/, "");
}

/** `--allowed-hosts a,b` (or a config file's list) as host names; throws an Error naming a bad one. */
export const parseAllowedHosts = (value: string | readonly string[]): string[] =>
  (typeof value === "string" ? value.split(",") : value)
    .filter((name) => name.trim() !== "")
    .map(parseAllowedHost);

/** Which Host names a server answers, and on which of its surfaces it checks them. */
export interface HostPolicy {
  allows(header: string | undefined): boolean;
  /** Also the account and carrier APIs (and recording media): when the server listens on loopback only. */
  readonly guardsPublicApis: boolean;
}

/**
 * The Host names a server answers: loopback names, any IP address, the bound host, the public URL's host and
 * the allowed hosts. DNS rebinding needs a name the attacker controls; an address can only be typed by someone
 * who knows it. The admin API checks them wherever the server listens; the account and carrier APIs when it
 * listens on loopback, where a page of any site the developer visits is the only stranger that can reach them.
 */
export function hostPolicy(
  boundHost: string,
  options: { publicUrl?: string | undefined; allowedHosts?: readonly string[] | undefined } = {},
): HostPolicy {
  const names = new Set([bare(boundHost), ...(options.allowedHosts ?? []).map(parseAllowedHost)]);
  if (options.publicUrl) {
    const name = hostNameOf(new URL(options.publicUrl).host);
    if (name) names.add(name);
  }
  return {
    allows(header) {
      if (header === undefined || header === "") return true; // no browser sends a request without one
      const name = hostNameOf(header);
      if (name === null) return false;
      return isLoopback(name) || isIP(name) !== 0 || names.has(name.replace(/\.$/, ""));
    },
    guardsPublicApis: isLoopback(boundHost),
  };
}

/** Static pages: no data behind them, so any Host may read them. */
const unguarded = ["/__sandbox/docs"];
/** Public as on the real service (recording media): checked with the account and carrier APIs. */
const publicAdminPaths = ["/__sandbox/media/"];

/** Whether `path` is checked under `policy`: the admin API always, the rest when the policy guards public APIs. */
function isGuarded(path: string, policy: HostPolicy): boolean {
  if (unguarded.some((prefix) => path.startsWith(prefix))) return false;
  if (surfaceOf(path) === "admin" && !publicAdminPaths.some((prefix) => path.startsWith(prefix))) return true;
  return policy.guardsPublicApis;
}

/**
 * Why a Host name is refused and how to have it answered: a name the server was not told (a Compose service,
 * a tunnel) is refused against DNS rebinding until it is named at start.
 */
export function foreignHostMessage(header: string | undefined): string {
  const name = header === undefined ? null : hostNameOf(header);
  const shown = name ?? "<name>";
  const authority = name === null ? "<name>:<port>" : new URL(`http://${header}`).host;
  return (
    `the sandbox does not answer for Host ${JSON.stringify(header)}: it answers only names it was told at start ` +
    "(a page of another site could point any other name at it, DNS rebinding). If this is how you reach it, " +
    `start it with --allowed-hosts ${shown} (VOICE_SANDBOX_ALLOWED_HOSTS=${shown}), or with --public-url ` +
    `http://${authority} when webhook URLs should use that name too (serve({ allowedHosts, publicBaseUrl }) ` +
    "in code). localhost, IP addresses and the bound host are always answered."
  );
}

/**
 * Refuses requests whose Host is not one `policy` allows with a 403 in the surface's own error format (Twilio's
 * on the account API, JSON:API on the carrier API, the admin API's on the rest).
 */
export function guardHost(handle: Handle, policy: HostPolicy): Handle {
  return (request) => {
    if (isGuarded(request.path, policy) && !policy.allows(request.headers.host)) {
      const error = errors.forbidden(foreignHostMessage(request.headers.host));
      return Promise.resolve(renderError(surfaceOf(request.path), error, request.path));
    }
    return handle(request);
  };
}
