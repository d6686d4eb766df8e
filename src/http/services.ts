// The settings and the sandbox-wide operations (reset, snapshots, scenario playback) route handlers reach through
// RouteServices (route.ts).
import type { StoreLoader } from "../domain/store-stream.js";
import type { StateCapture, StateHeader } from "./admin-api/state-stream.js";

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
