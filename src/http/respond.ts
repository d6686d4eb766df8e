// Builds responses in each surface's content type.
import type { SandboxResponse } from "./types.js";

export const jsonApiMediaType = "application/vnd.api+json";

export function jsonResponse(
  status: number,
  body: unknown,
  contentType = "application/json; charset=utf-8",
  headers: Record<string, string> = {},
): SandboxResponse {
  return { status, headers: { "content-type": contentType, ...headers }, body: JSON.stringify(body) };
}

/** Account API: Twilio's JSON. */
export const twilioJson = (status: number, body: unknown) => jsonResponse(status, body);

/** Carrier API: a JSON:API document. */
export const jsonApi = (status: number, document: unknown, headers: Record<string, string> = {}) =>
  jsonResponse(status, document, jsonApiMediaType, headers);

export const noContent = (): SandboxResponse => ({ status: 204, headers: {}, body: "" });
