// The dispatcher's delivery settings: their defaults, and the check that refuses a bad one when a dispatcher is made.

/** Delivery settings (`createSandbox({ webhooks: {...} })`). */
export interface WebhookOptions {
  /** Real-time limit per request, in ms. Default 15000 (Twilio's webhook timeout). */
  timeoutMs?: number;
  /** Attempts per callback, first try included. Default 3. Markup fetches are tried once. */
  maxAttempts?: number;
  /** Delay before the first retry, in sandbox-clock ms; doubles each retry. Default 1000. */
  backoffMs?: number;
  /** Attempts kept in the delivery log; the oldest fall out first. Default 10000. */
  logLimit?: number;
  /** Callbacks in flight at once across all URLs. Default 64. */
  concurrency?: number;
  /**
   * Callbacks in flight at once to one host (`host:port`). Default 8. Hosts take turns for the free slots,
   * so a slow receiver holds at most this many and delays only its own deliveries.
   */
  perHostConcurrency?: number;
  /**
   * Deliveries one host may have waiting (queued, behind an earlier one of the same call, or waiting to
   * retry). Default 10000. Past it a new callback is not queued: it is logged as failed, so a receiver that
   * never answers cannot make the queue grow without end.
   */
  maxQueuedPerHost?: number;
}

export const defaultWebhookOptions: Readonly<Required<WebhookOptions>> = Object.freeze({
  timeoutMs: 15_000,
  maxAttempts: 3,
  backoffMs: 1_000,
  logLimit: 10_000,
  concurrency: 64,
  perHostConcurrency: 8,
  maxQueuedPerHost: 10_000,
});

export function checkOptions(options: WebhookOptions): Required<WebhookOptions> {
  const merged = { ...defaultWebhookOptions, ...options };
  const positive = (name: keyof WebhookOptions, integer: boolean) => {
    const value = merged[name];
    if (!(value > 0) || (integer && !Number.isInteger(value))) {
      throw new Error(`webhooks.${name} must be a positive ${integer ? "integer" : "number"}, got ${value}`);
    }
  };
  positive("timeoutMs", false);
  positive("maxAttempts", true);
  positive("logLimit", true);
  positive("concurrency", true);
  positive("perHostConcurrency", true);
  positive("maxQueuedPerHost", true);
  if (!(merged.backoffMs >= 0))
    throw new Error(`webhooks.backoffMs must be 0 or more, got ${merged.backoffMs}`);
  return merged;
}
