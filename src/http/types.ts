// The plain values at the middle of every door: one request in, one response out.

export interface SandboxRequest {
  method: string;
  /** Path without query string, percent-encoding left as sent, e.g. `/carrier/v1/accounts`. */
  path: string;
  /** Raw query string without the leading `?` ("" when none). */
  query: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** Raw body as text ("" when none). */
  body: string;
  /** Set by a door that stopped reading a body over the size limit. */
  bodyTooLarge?: boolean;
  /**
   * An NDJSON body (`application/x-ndjson`), left unread for the route to stream (`body` is then "");
   * only routes that declare `streamsBody` accept one.
   */
  bodyStream?: AsyncIterable<Uint8Array | string>;
}

export interface SandboxResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string | Uint8Array;
  /** A body too large to hold at once, sent piece by piece instead of `body` (then ""). */
  stream?: AsyncIterable<string | Uint8Array>;
}

export const ndjsonMediaType = "application/x-ndjson";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Which error format and body style a path uses. */
export type Surface = "account" | "carrier" | "admin";

export const bodyLimitBytes = 1024 * 1024;
