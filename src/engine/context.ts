// What every engine operation works with: the store, the clock and the id generator.
import type { IdGenerator } from "../domain/ids.js";
import type { Store } from "../domain/store.js";
import type { Clock } from "./clock.js";

export interface EngineContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}
