// The delivery log: every attempt at a customer URL, in a bounded ring so a long-running sandbox stays small.
import type { OutboundKind } from "./contract.js";

/** How one attempt ended: a 2xx/3xx answer, a 4xx/5xx answer, no answer, or no answer in time. */
export type AttemptOutcome = "success" | "http-error" | "network-error" | "timeout";

export interface DeliveryAttempt {
  /** The delivery's id: the same on every attempt of one delivery. */
  id: string;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
  kind: OutboundKind;
  method: "GET" | "POST";
  /** The URL requested: for GET, the configured URL with the parameters in its query string. */
  url: string;
  params: Readonly<Record<string, string>>;
  /** The `X-Vendor-Signature` (and `X-Twilio-Signature`) value sent. */
  signature: string;
  /** The `I-Twilio-Idempotency-Token` value sent: the same on every attempt of one delivery. */
  idempotencyToken: string;
  accountSid: string;
  callSid: string | null;
  messageSid: string | null;
  orderingKey: string | null;
  /** Sandbox clock time the attempt was made, in ms since the epoch. */
  at: number;
  /** The receiver's HTTP status, or null when none came back. */
  status: number | null;
  outcome: AttemptOutcome;
  /** What went wrong, in words ("HTTP 500", "ECONNREFUSED: connect ...", "timed out after 15000 ms"). */
  error: string | null;
  /** Real time the attempt took (the I/O is real even when the sandbox clock is virtual). */
  latencyMs: number;
  /** The `Cookie` header sent (the call's or SMS pair's kept cookies), or null when none was. */
  cookie: string | null;
  /** The `Set-Cookie` headers the answer carried. */
  setCookies: string[];
  /** The start of the receiver's answer (up to 1 KiB), for debugging. */
  responseBody: string | null;
  /** Sandbox clock time of the retry this attempt scheduled, or null when none follows. */
  nextAttemptAt: number | null;
}

export interface DeliveryFilter {
  callSid?: string | undefined;
  accountSid?: string | undefined;
  messageSid?: string | undefined;
  kind?: OutboundKind | undefined;
  outcome?: AttemptOutcome | undefined;
  /** Keep only the last `limit` matches. */
  limit?: number | undefined;
}

export interface DeliveryLog {
  append(attempt: DeliveryAttempt): void;
  /** Matching attempts, oldest first. */
  list(filter?: DeliveryFilter): DeliveryAttempt[];
  /** Attempts held now. */
  readonly size: number;
  readonly capacity: number;
  /** Attempts pushed out of the ring since the last clear. */
  readonly evicted: number;
  clear(): void;
}

export function createDeliveryLog(capacity: number): DeliveryLog {
  if (!Number.isInteger(capacity) || capacity < 1) {
    throw new Error(`webhooks.logLimit must be a positive integer, got ${capacity}`);
  }
  let ring: (DeliveryAttempt | undefined)[] = new Array(capacity);
  let start = 0;
  let size = 0;
  let evicted = 0;

  const matches = (a: DeliveryAttempt, f: DeliveryFilter) =>
    (f.callSid === undefined || a.callSid === f.callSid) &&
    (f.accountSid === undefined || a.accountSid === f.accountSid) &&
    (f.messageSid === undefined || a.messageSid === f.messageSid) &&
    (f.kind === undefined || a.kind === f.kind) &&
    (f.outcome === undefined || a.outcome === f.outcome);

  return {
    append(attempt) {
      if (size < capacity) {
        ring[(start + size) % capacity] = attempt;
        size++;
      } else {
        ring[start] = attempt;
        start = (start + 1) % capacity;
        evicted++;
      }
    },
    list(filter = {}) {
      const out: DeliveryAttempt[] = [];
      for (let i = 0; i < size; i++) {
        const attempt = ring[(start + i) % capacity]!;
        if (matches(attempt, filter)) out.push(attempt);
      }
      return filter.limit !== undefined && out.length > filter.limit
        ? out.slice(out.length - filter.limit)
        : out;
    },
    get size() {
      return size;
    },
    capacity,
    get evicted() {
      return evicted;
    },
    clear() {
      ring = new Array(capacity);
      start = 0;
      size = 0;
      evicted = 0;
    },
  };
}
