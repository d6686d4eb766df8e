// What every engine operation works with: the store, the clock and the id generator.
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
  /** Destination countries (ISO codes) that take alphanumeric sender IDs; absent, the documented default. */
  readonly alphanumericSenderCountries?: readonly string[];
}

/** How many carrier events are kept, and for how long on the sandbox clock; the oldest go first. */
export interface EventRetention {
  /** At most this many events. Default 100000; 0 keeps none. */
  maxCount?: number;
  /** Events older than this many milliseconds of sandbox time are dropped. Default: no age limit. */
  maxAgeMs?: number;
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
