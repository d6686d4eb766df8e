// Markup fetches: one attempt, redirects followed, sent at once beside the callback queue, the answer handed back to the engine.
import { outcomeOf, prepare, record } from "./attempt.js";
import { maxMarkupBytes, type OutboundRequest, type OutboundResult } from "./contract.js";
import { type DispatcherState, mintId, wakeIdle } from "./dispatcher-state.js";

/** A markup answer is read one byte past the limit, enough for the parser to refuse it as too large. */
const markupAnswerBytes = maxMarkupBytes + 1;

export async function fetchMarkup(s: DispatcherState, request: OutboundRequest): Promise<OutboundResult> {
  const { clock, elapsed } = s;
  const id = mintId(s);
  const wire = prepare(s, request, id);
  const at = clock.now();
  const started = elapsed();
  const myGeneration = s.generation;
  s.inFlightRequests++;
  try {
    const result = await s.transport.send({
      ...wire,
      followRedirects: true,
      timeoutMs: request.timeoutMs ?? s.options.timeoutMs,
      maxBodyBytes: markupAnswerBytes,
    });
    const outcome = outcomeOf(result, (status) => status >= 200 && status < 300);
    if (myGeneration === s.generation) {
      record(s, { id, request, attempt: 1 }, wire, at, result, elapsed() - started, outcome, null);
    }
    if (result.kind !== "response")
      return { ok: false, error: result.error, reason: result.kind, url: wire.url, deliveryId: id };
    if (outcome !== "success") {
      return {
        ok: false,
        error: `HTTP ${result.status}`,
        reason: "http-error",
        status: result.status,
        url: result.url,
        deliveryId: id,
      };
    }
    return {
      ok: true,
      status: result.status,
      headers: result.headers,
      body: result.body,
      url: result.url,
      deliveryId: id,
    };
  } finally {
    s.inFlightRequests--;
    wakeIdle(s);
  }
}
