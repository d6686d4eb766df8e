// What every engine operation works with: the store, the clock and the id generator.
import type { LedgerEntry } from "../../domain/carrier-records.js";
import type { IdGenerator } from "../../domain/ids.js";
import type { Store } from "../../domain/store.js";
import type { WebhookSender } from "../../webhooks/contract.js";
import type { Clock } from "../time/clock.js";
import type { FaultRegistry } from "./fault-types.js";

export interface EngineContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Injected faults (admin `POST /__sandbox/faults`); read them through `consumeFault`. */
  readonly faults?: FaultRegistry;
  /** Credit held for running calls and messages under way (admission, the call engine, messaging); absent, nothing is held. */
  readonly holds?: CreditHolds;
  /** Requests to customers' URLs: markup fetches now, callbacks queued (src/webhooks/contract.ts). */
  readonly webhooks?: WebhookSender;
  /** How many carrier events are kept and for how long (src/engine/context/events.ts has the defaults). */
  readonly eventRetention?: EventRetention;
  /**
   * How many finished records of each kind are kept, and for how long (src/engine/context/retention.ts drops
   * the rest, oldest first); absent, every record is kept.
   */
  readonly recordRetention?: RecordRetention;
  /** Where the charges of dropped records are summed up (usage records read them); absent, nothing is. */
  readonly usageTotals?: UsageTotals;
  /** Destination countries (ISO codes) that take alphanumeric sender IDs; absent, the documented default. */
  readonly alphanumericSenderCountries?: readonly string[];
}

/** How many carrier events are kept, and for how long on the sandbox clock; the oldest go first. */
export interface EventRetention {
  /** At most this many events. Default 20000; 0 keeps none. */
  maxCount?: number;
  /** Events older than this many milliseconds of sandbox time are dropped. Default: no age limit. */
  maxAgeMs?: number;
}

/**
 * How many finished records are kept, and for how long on the sandbox clock: calls, messages, conferences,
 * recordings, transcriptions and ledger entries, each kind on its own; the oldest finished go first.
 */
export interface RecordRetention {
  /** At most this many finished records of each kind. 0 keeps none. */
  maxCount?: number;
  /** Finished records made longer ago than this many milliseconds of sandbox time are dropped. */
  maxAgeMs?: number;
}

/** The charges of dropped records, summed per account, category and day (src/engine/billing/usage-records.ts). */
export interface UsageTotals {
  /**
   * Adds charges about to be dropped (while what they charged for is still in the store) to their accounts'
   * totals; entries that are not charges are passed over.
   */
  fold(entries: readonly LedgerEntry[]): void;
}

/** Credit held for running calls and messages under way (src/engine/billing/credit-holds.ts holds it). */
export interface CreditHolds {
  /** Cents held for the account's running calls and messages under way. */
  heldBy(accountSid: string): number;
  /** Holds `cents` more for the call or message `sid`. */
  add(accountSid: string, sid: string, cents: number): void;
  /** Lets go of what the call or message held (the call ended and was billed; the message was charged or failed). */
  release(sid: string): void;
  /** Forgets every hold (sandbox reset or restore). */
  clear(): void;
}
