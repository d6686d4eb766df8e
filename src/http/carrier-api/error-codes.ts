// The `code` of a carrier API error object: JSON:API's "application-specific error code", one per error.
import type { SandboxError } from "../../domain/errors.js";

/**
 * The error's own code: Twilio's dictionary code when it has one (20003, 20404, 20005, 20009, ...), else the
 * HTTP status it answers with ("409" for a conflict, "422" for an invalid attribute), never another error's.
 */
export function carrierCodeFor(error: SandboxError): string {
  return String(error.code >= 10_000 ? error.code : error.status);
}
