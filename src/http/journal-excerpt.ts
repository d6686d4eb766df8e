// What the request journal keeps of bodies: a bounded excerpt, secrets masked when shown, and the answer's error code.
import type { SandboxResponse } from "./types.js";

/** Characters of a request or response body the journal keeps (the rest is dropped). */
export const excerptLimit = 2048;

/** A body's first `excerptLimit` characters (null when empty or binary, such as recording audio). */
export function excerptOf(body: string | Uint8Array): string | null {
  if (typeof body !== "string" || body === "") return null;
  if (body.length <= excerptLimit) return body;
  // A slice would keep the whole body alive behind it; copying the excerpt lets the body go.
  return Buffer.from(body.slice(0, excerptLimit), "utf8").toString("utf8");
}

/** Names of fields that carry secrets: credentials, keys, tokens, passwords. */
const secretName =
  "[A-Za-z_]*(?:[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Pp]assword|PASSWORD|[Kk]ey|KEY|[Aa]uth|AUTH)[A-Za-z_]*";
// A value cut off by the excerpt's end is masked too.
const jsonSecret = new RegExp(`("${secretName}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*(?:"|$)`, "g");
const formSecret = new RegExp(`((?:^|&)${secretName}=)[^&]*`, "g");

/** Masks secret values in a JSON or form-encoded excerpt (whole or cut short), keeping the field names. */
export function redactSecrets(text: string): string {
  return text.replace(jsonSecret, '$1"[redacted]"').replace(formSecret, "$1[redacted]");
}

/** The error code an answer carries: Twilio's `code`, JSON:API's first `errors[].code`; null otherwise. */
export function errorCodeOf(response: SandboxResponse): number | null {
  if (response.status < 400 || typeof response.body !== "string") return null;
  try {
    const body = JSON.parse(response.body) as { code?: unknown; errors?: { code?: unknown }[] };
    const code = body.code ?? body.errors?.[0]?.code;
    const numeric = typeof code === "string" ? Number(code) : code;
    return typeof numeric === "number" && Number.isInteger(numeric) ? numeric : null;
  } catch {
    return null;
  }
}
