// The requests the sandbox is sending to customers' URLs right now, known by their idempotency token, so a
// strict MSW setup in the same process can tell them from the test's own requests and let them through.

/** Every webhook and markup fetch carries it, with a token unique to the delivery. */
export const idempotencyTokenHeader = "I-Twilio-Idempotency-Token";

// One table for the whole process, so that two copies of the package (a dual install, a bundled and an
// unbundled one) still recognise each other's deliveries. A token counts how many of its requests are out:
// two sandboxes with the same seed mint the same tokens.
const tableKey = Symbol.for("voice-sandbox.requests-in-flight");

function inFlight(): Map<string, number> {
  const holder = globalThis as { [tableKey]?: Map<string, number> };
  holder[tableKey] ??= new Map();
  return holder[tableKey];
}

/** Marks the request with `token` as the sandbox's own until the returned function is called. */
export function trackOwnRequest(token: string): () => void {
  const table = inFlight();
  table.set(token, (table.get(token) ?? 0) + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const left = (table.get(token) ?? 1) - 1;
    if (left > 0) table.set(token, left);
    else table.delete(token);
  };
}

/**
 * True when `request` is a webhook or markup fetch a sandbox in this process is sending (not a request the
 * test or the app makes). `failOnUnhandled` lets these through to the network; a hand-written
 * `onUnhandledRequest` callback can do the same with it.
 */
export function isSandboxWebhook(request: { readonly headers: Headers }): boolean {
  const token = request.headers.get(idempotencyTokenHeader);
  return token !== null && inFlight().has(token);
}
