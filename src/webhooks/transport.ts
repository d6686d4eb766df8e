// One HTTP exchange with a customer's URL: an in-process receiver or `fetch`, under a real-time timeout and a size limit.
import { normaliseAnswer, type ReceiverRegistry } from "./in-process-receivers.js";
import { idempotencyTokenHeader, trackOwnRequest } from "./own-requests.js";

export interface WireRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  /** Form body for POST; undefined for GET. */
  body: string | undefined;
  /** Markup fetches follow redirects; callbacks take a 3xx as the answer. */
  followRedirects: boolean;
  timeoutMs: number;
  /**
   * Most bytes of the answer's body read; the rest is never read (the connection is closed), so a huge or
   * endless answer costs no more memory than this.
   */
  maxBodyBytes: number;
}

export type WireResult =
  | {
      kind: "response";
      status: number;
      headers: Record<string, string>;
      /** Every `Set-Cookie` header of the answer, one entry each (a header map would merge them). */
      setCookies: string[];
      body: string;
      url: string;
    }
  | { kind: "timeout"; error: string }
  | { kind: "network-error"; error: string; retryable: boolean };

export interface Transport {
  /** Never rejects: failures come back as values. */
  send(request: WireRequest): Promise<WireResult>;
}

const maxRedirects = 10;

export function createTransport(receivers: ReceiverRegistry, getFetch: () => typeof fetch): Transport {
  return {
    async send(request) {
      try {
        new URL(request.url);
      } catch {
        return { kind: "network-error", error: `invalid URL: ${request.url}`, retryable: false };
      }
      // Real time, not sandbox time: while a request is outstanding the sandbox clock stands still.
      const signal = AbortSignal.timeout(request.timeoutMs);
      try {
        return await exchange(request, signal, receivers, getFetch);
      } catch (error) {
        if (signal.aborted || isAbort(error)) {
          return { kind: "timeout", error: `timed out after ${request.timeoutMs} ms` };
        }
        return { kind: "network-error", error: describe(error), retryable: true };
      }
    },
  };
}

async function exchange(
  request: WireRequest,
  signal: AbortSignal,
  receivers: ReceiverRegistry,
  getFetch: () => typeof fetch,
): Promise<WireResult> {
  let { method, url, body } = request;
  for (let hop = 0; ; hop++) {
    const receiver = receivers.find(url);
    if (!receiver) return await overNetwork(request, method, url, body, signal, getFetch);
    const params = Object.fromEntries(
      new URLSearchParams(method === "GET" ? new URL(url).search : (body ?? "")),
    );
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const answer = normaliseAnswer(
      await abortable(
        Promise.resolve().then(() => receiver({ method, url, headers, params, body: body ?? "" })),
        signal,
      ).catch((error: unknown) => {
        if (signal.aborted) throw error;
        return { status: 500, body: `receiver threw: ${describe(error)}` };
      }),
    );
    const location = answer.headers.location;
    if (!request.followRedirects || answer.status < 300 || answer.status > 399 || !location) {
      const setCookie = answer.headers["set-cookie"];
      return {
        kind: "response",
        ...answer,
        setCookies: setCookie ? [setCookie] : [],
        body: truncate(textOf(answer.body), request.maxBodyBytes),
        url,
      };
    }
    if (hop >= maxRedirects) return { kind: "network-error", error: "too many redirects", retryable: false };
    // Redirects as fetch follows them: 303 (and 301/302 after a POST) become a GET without a body.
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === "POST")) {
      method = "GET";
      body = undefined;
    }
    url = new URL(location, url).toString();
  }
}

/** The exchange through `fetch`, known meanwhile as the sandbox's own (a strict MSW setup lets it through). */
async function overNetwork(
  request: WireRequest,
  method: WireRequest["method"],
  url: string,
  body: string | undefined,
  signal: AbortSignal,
  getFetch: () => typeof fetch,
): Promise<WireResult> {
  const token = request.headers[idempotencyTokenHeader];
  const release = token === undefined ? () => undefined : trackOwnRequest(token);
  try {
    const response = await getFetch()(url, {
      method,
      headers: request.headers,
      ...(body !== undefined ? { body } : {}),
      redirect: request.followRedirects ? "follow" : "manual",
      signal,
    });
    const text = await readBounded(response.body, request.maxBodyBytes);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return {
      kind: "response",
      status: response.status,
      headers,
      setCookies: response.headers.getSetCookie(),
      body: text,
      url: response.url || url,
    };
  } finally {
    release();
  }
}

/** Reads at most `limit` bytes of a body, then cancels the stream: what lies beyond is never buffered. */
async function readBounded(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.byteLength > limit - total ? value.subarray(0, limit - total) : value;
      chunks.push(part);
      total += part.byteLength;
    }
  } finally {
    // On a finished stream this does nothing; on a longer one it closes the connection.
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const textOf = (body: string | Uint8Array) =>
  typeof body === "string" ? body : new TextDecoder().decode(body);

/** An in-process answer held to the same limit as one read from the network. */
function truncate(text: string, limit: number): string {
  if (text.length <= limit / 4 || Buffer.byteLength(text) <= limit) return text;
  return new TextDecoder().decode(Buffer.from(text).subarray(0, limit));
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const isAbort = (error: unknown) =>
  error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");

/** Node's fetch says only "fetch failed"; the cause carries the socket error (ECONNREFUSED, ECONNRESET...). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  if (cause && typeof cause === "object") {
    const code = typeof cause.code === "string" ? cause.code : undefined;
    const message = typeof cause.message === "string" ? cause.message : undefined;
    if (code || message) return [code, message].filter(Boolean).join(": ");
  }
  return error.message;
}
