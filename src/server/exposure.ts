// Who may reach the admin API: refuse to listen beyond loopback unprotected, and refuse admin requests by foreign Host names.
import { isIP } from "node:net";
import { errors } from "../domain/errors.js";
import type { Handle } from "../http/handle.js";
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

/**
 * The Host names the admin API answers: loopback names, any IP address, the bound host and the public URL's
 * host. DNS rebinding needs a name the attacker controls; an address can only be typed by someone who knows it.
 */
export function allowedAdminHosts(boundHost: string, publicUrl: string | undefined) {
  const names = new Set([bare(boundHost)]);
  if (publicUrl) {
    const name = hostNameOf(new URL(publicUrl).host);
    if (name) names.add(name);
  }
  return (header: string | undefined): boolean => {
    if (header === undefined || header === "") return true; // no browser sends a request without one
    const name = hostNameOf(header);
    if (name === null) return false;
    return isLoopback(name) || isIP(name) !== 0 || names.has(name);
  };
}

/** Admin paths whose answers are public as they are on the real service (recording media) or static pages. */
const unguarded = ["/__sandbox/media/", "/__sandbox/docs"];

/** Refuses admin API requests (403, admin error format) whose Host is not one this server answers to. */
export function guardAdminHost(handle: Handle, allowed: (header: string | undefined) => boolean): Handle {
  return (request) => {
    if (
      request.path.startsWith("/__sandbox/") &&
      !unguarded.some((prefix) => request.path.startsWith(prefix)) &&
      !allowed(request.headers.host)
    ) {
      return Promise.resolve(
        renderError(
          "admin",
          errors.forbidden(
            `the admin API does not answer for Host ${JSON.stringify(request.headers.host)}: use localhost, an IP address, the bound host, or the --public-url host`,
          ),
        ),
      );
    }
    return handle(request);
  };
}
