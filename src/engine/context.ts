// What every engine operation works with: the store, the clock and the id generator.
import type { IdGenerator } from "../domain/ids.js";
import type { Store } from "../domain/store.js";
import type { WebhookSender } from "../webhooks/contract.js";
import type { Clock } from "./clock.js";
import type { CreditHolds } from "./credit-holds.js";
import type { EventRetention } from "./events.js";
import type { FaultRegistry } from "./faults.js";

export interface EngineContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Injected faults (admin `POST /__sandbox/faults`); read them through `consumeFault`. */
  readonly faults?: FaultRegistry;
  /** Credit held for running calls (admission and the call engine); absent, nothing is held. */
  readonly holds?: CreditHolds;
  /** Requests to customers' URLs: markup fetches now, callbacks queued (src/webhooks/contract.ts). */
  readonly webhooks?: WebhookSender;
  /** How many carrier events are kept and for how long (src/engine/events.ts has the defaults). */
  readonly eventRetention?: EventRetention;
  /** Destination countries (ISO codes) that take alphanumeric sender IDs; absent, the documented default. */
  readonly alphanumericSenderCountries?: readonly string[];
}
