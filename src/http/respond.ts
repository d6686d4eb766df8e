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

/** The JSON of the rows each renderer showed last, by row: at most this many per renderer, started over when full. */
const renderedRows = new WeakMap<object, Map<object, string>>();
const renderedLimit = 256;

/**
 * Account API: one stored row as `render` shows it. Rows are immutable (a change stores a new row) and a
 * renderer that takes only the row reads nothing else, so the JSON of a row fetched again unchanged (a client
 * polling a call's status) is kept and sent again instead of built again; serializing was a third of a fetch.
 */
export function twilioRow<R extends object>(
  status: number,
  render: (row: R) => unknown,
  row: R,
): SandboxResponse {
  let shown = renderedRows.get(render);
  if (!shown) {
    shown = new Map();
    renderedRows.set(render, shown);
  }
  let body = shown.get(row);
  if (body === undefined) {
    body = JSON.stringify(render(row));
    if (shown.size >= renderedLimit) shown.clear();
    shown.set(row, body);
  }
  return { status, headers: { "content-type": "application/json; charset=utf-8" }, body };
}

/** Carrier API: a JSON:API document. */
export const jsonApi = (status: number, document: unknown, headers: Record<string, string> = {}) =>
  jsonResponse(status, document, jsonApiMediaType, headers);

export const noContent = (): SandboxResponse => ({ status: 204, headers: {}, body: "" });
