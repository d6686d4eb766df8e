// What route handlers may reach: the state, the call engine, the settings, and the admin API's sandbox-wide operations.

import type { StoreLoader } from "../domain/store-stream.js";
import type { CallEngine } from "../engine/calls/call-engine.js";
import type { EngineContext } from "../engine/context/context.js";
import type { WebhookDispatcher } from "../webhooks/dispatcher.js";
import type { HealthBoard } from "./admin-api/health-board.js";
import type { StateCapture, StateHeader } from "./admin-api/state-stream.js";
import type { RequestJournal } from "./request-journal.js";
import type { AnyRoute } from "./route.js";

export interface SandboxSettings {
  carrierKey: string;
  adminToken?: string | undefined;
  version: string;
}

export interface SandboxAdmin {
  /** Back to the fixtures (or to an empty sandbox). */
  reset(to: "fixtures" | "empty"): void;
  /** The whole state as plain JSON. */
  snapshot(): unknown;
  /** Replaces the whole state; a bad snapshot is refused and changes nothing. */
  restore(snapshot: unknown): void;
  /** The whole state at this instant, read lazily (streamed exports). */
  captureState(): StateCapture;
  /** Puts a state read by a StoreLoader in place of the live one, at once. */
  restoreLoaded(header: StateHeader, loader: StoreLoader): void;
}

/** Plays scenario YAML in a fresh sandbox like this one (`POST /__sandbox/scenarios`). */
export interface ScenarioPlayer {
  run(
    yaml: string,
    options: {
      target?: string | undefined;
      seed?: number | string | undefined;
      /** WebSocket apps' URLs by name, for `{apps.name}` in the scenario's markup. */
      apps?: Record<string, string> | undefined;
      keep?: boolean | undefined;
      live?: boolean | undefined;
    },
  ): Promise<{ loaded: false; message: string } | { loaded: true; result: unknown }>;
}

export interface RouteServices {
  /** The store, clock, ids and faults: record-level engine operations take this. */
  context: EngineContext;
  /** The running call engine: starting, controlling and observing calls, messages, conferences, queues. */
  calls: CallEngine;
  settings: SandboxSettings;
  admin: SandboxAdmin;
  /** The request journal (`GET /__sandbox/requests`); absent, requests are not recorded. */
  journal?: RequestJournal;
  /** The webhook dispatcher and its delivery log (`GET /__sandbox/webhooks`). */
  webhooks?: WebhookDispatcher;
  /** Scenario playback; absent, the scenarios route answers 404. */
  scenarios?: ScenarioPlayer;
  /** Problems parts of the sandbox report (`GET /__sandbox/health` says "degraded" while any is open). */
  health?: HealthBoard;
  /** The route table being served (the OpenAPI document describes it); `createHandle` fills it in. */
  routes?: readonly AnyRoute[];
}
