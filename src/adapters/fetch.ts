// The Fetch door: a standard Request in, a standard Response out, for any Fetch-based runtime.
import type { Handle } from "../http/handle.js";
import { bodyLimitBytes, ndjsonMediaType, type SandboxRequest, type SandboxResponse } from "../http/types.js";

export async function fromFetchRequest(request: Request): Promise<SandboxRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  // The URL is the whole truth here: msw 3 adds a host header and msw 2 does not, and neither says the
  // scheme, so without these a redirect built from them (recording media) would point at http:// or nowhere.
  headers.host ??= url.host;
  headers["x-forwarded-proto"] ??= url.protocol.replace(/:$/, "");
  const type = (headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === ndjsonMediaType && request.body) {
    // Left unread for a route that streams it (a state import).
    return {
      method: request.method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ""),
      headers,
      body: "",
      bodyStream: request.body as unknown as AsyncIterable<Uint8Array>,
    };
  }
  const raw = request.body ? new Uint8Array(await request.arrayBuffer()) : new Uint8Array();
  const tooLarge = raw.byteLength > bodyLimitBytes;
  return {
    method: request.method,
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    headers,
    body: tooLarge ? "" : new TextDecoder().decode(raw),
    ...(tooLarge ? { bodyTooLarge: true } : {}),
  };
}

export function toFetchResponse(response: SandboxResponse): Response {
  const stream = response.stream;
  if (stream) {
    const encoder = new TextEncoder();
    const iterator = stream[Symbol.asyncIterator]();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }
  const body = response.status === 204 || response.status === 304 ? null : response.body;
  const length = body === null ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  // A known length keeps keep-alive clients (twilio-node's axios) from waiting on a stream.
  return new Response(body as BodyInit | null, {
    status: response.status,
    headers: { ...response.headers, "content-length": String(length) },
  });
}

/** `fetch`-shaped access to the sandbox: `await sandbox.fetch("https://x/__sandbox/health")`. */
export function createFetch(handle: Handle) {
  return async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    return toFetchResponse(await handle(await fromFetchRequest(request)));
  };
}
