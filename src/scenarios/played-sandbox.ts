// What playing a scenario uses of a sandbox (a SandboxCore has all of it): scenarios depend on this, not on sandbox.ts.
import type { Store } from "../domain/store.js";
import type { CallEngine } from "../engine/calls/call-engine.js";
import type { FaultRegistry } from "../engine/context/fault-types.js";
import type { SwitchableClock } from "../engine/time/switchable-clock.js";
import type { Handle } from "../http/handle.js";
import type { SandboxSettings } from "../http/services.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";

export interface PlayedSandbox {
  readonly handle: Handle;
  readonly clock: SwitchableClock;
  readonly store: Store;
  readonly settings: SandboxSettings;
  readonly faults: FaultRegistry;
  readonly webhooks: WebhookDispatcher;
  readonly calls: CallEngine;
  settle(): Promise<void>;
  /** The whole state as plain JSON (what `keep` loads into the sandbox that asked). */
  snapshot(): unknown;
}
