// Media a <Play> names, fetched for listeners only: through the same in-process receivers and `fetch` as markup, as bytes, capped, unlogged.
import { normaliseAnswer, type ReceiverRegistry } from "./in-process-receivers.js";

export type MediaResult = { ok: true; bytes: Uint8Array; contentType: string } | { ok: false; error: string };

export interface MediaRequest {
  url: string;
  /** Real milliseconds before the fetch is given up. */
  timeoutMs: number;
  /** A body longer than this is refused (counted while reading: the rest is never read). */
  maxBytes: number;
  userAgent: string;
}

/** GETs `url` (http or https only); never rejects. Not logged and not counted by `idle()`: the engine never waits for it. */
export async function fetchMedia(
  receivers: ReceiverRegistry,
  getFetch: () => typeof fetch,
  request: MediaRequest,
): Promise<MediaResult> {
  let parsed: URL;
  try {
    parsed = new URL(request.url);
  } catch {
    return { ok: false, error: `invalid URL: ${request.url}` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { ok: false, error: `only http and https media is fetched, not ${parsed.protocol}` };
  }
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    const receiver = receivers.find(request.url);
    if (receiver) {
      const answer = normaliseAnswer(
        await Promise.race([
          Promise.resolve().then(() =>
            receiver({ method: "GET", url: request.url, headers: {}, params: {}, body: "" }),
          ),
          new Promise<never>((_, reject) =>
            signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
          ),
        ]),
      );
      if (answer.status < 200 || answer.status > 299) return { ok: false, error: `HTTP ${answer.status}` };
      const bytes = typeof answer.body === "string" ? new TextEncoder().encode(answer.body) : answer.body;
      if (bytes.length > request.maxBytes)
        return { ok: false, error: `larger than ${request.maxBytes} bytes` };
      return { ok: true, bytes, contentType: answer.headers["content-type"] ?? "" };
    }
    const response = await getFetch()(request.url, {
      headers: { accept: "audio/*", "user-agent": request.userAgent },
      redirect: "follow",
      signal,
    });
    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, error: `HTTP ${response.status}` };
    }
    const bytes = await readCapped(response.body, request.maxBytes);
    if (!bytes) return { ok: false, error: `larger than ${request.maxBytes} bytes` };
    return { ok: true, bytes, contentType: response.headers.get("content-type") ?? "" };
  } catch (error) {
    if (signal.aborted) return { ok: false, error: `timed out after ${request.timeoutMs} ms` };
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The whole body, or null once it passes `limit` (the stream is cancelled there). */
async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return Buffer.concat(chunks);
      total += value.byteLength;
      if (total > limit) return null;
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
