// The composition root: one state, one clock, one id generator, one route table behind `handle`.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createIdGenerator, type IdGeneratorState } from "./domain/ids.js";
import { createStore, type Store } from "./domain/store.js";
import { type Clock, type ClockMode, createRealClock, createVirtualClock } from "./engine/clock.js";
import type { EngineContext } from "./engine/context.js";
import { applyFixtures } from "./fixtures/apply.js";
import { loadFixtureFile, parseFixtures } from "./fixtures/load.js";
import { type FixtureFile, type FixtureInput, fixtureFileSchema } from "./fixtures/schema.js";
import { createHandle, type Handle } from "./http/handle.js";
import { routes } from "./http/routes.js";
import type { SandboxSettings } from "./http/services.js";

export interface SandboxOptions {
  /**
   * Fixtures: a path to a YAML file, a fixture object, or `false` for an empty sandbox
   * (then `carrierKey` is required). Default: the packaged `fixtures/default.yaml`.
   */
  fixtures?: string | FixtureInput | false;
  /** `virtual` (default in library mode: time moves only when told), `real`, or a clock of your own. */
  clock?: ClockMode | Clock;
  /** Seed for ids and seeded randomness: the same seed gives the same sids. Default 1. */
  seed?: number | string;
  /** Overrides the fixtures' carrier key. */
  carrierKey?: string;
  /** When set, admin routes other than health need `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
}

export interface SandboxSnapshot {
  format: "voice-sandbox/1";
  clock: { now: number };
  ids: IdGeneratorState;
  store: ReturnType<Store["snapshot"]>;
}

export interface SandboxCore {
  /** The core on plain values: every door calls this. */
  handle: Handle;
  readonly clock: Clock;
  readonly store: Store;
  readonly engine: EngineContext;
  readonly settings: SandboxSettings;
  /** Back to the fixtures (default) or to an empty sandbox; ids restart from the seed. */
  reset(to?: "fixtures" | "empty"): void;
  snapshot(): SandboxSnapshot;
  restore(snapshot: unknown): void;
}

export const packageRoot = fileURLToPath(new URL("..", import.meta.url));
export const defaultFixturesPath = fileURLToPath(new URL("../fixtures/default.yaml", import.meta.url));

export const version: string = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;

function resolveFixtures(fixtures: SandboxOptions["fixtures"]): FixtureFile | null {
  if (fixtures === false) return null;
  if (fixtures === undefined) return loadFixtureFile(defaultFixturesPath);
  if (typeof fixtures === "string") {
    return fixtures.trimStart().startsWith("carrier:") ? parseFixtures(fixtures) : loadFixtureFile(fixtures);
  }
  return fixtureFileSchema.parse(fixtures);
}

function createClock(option: SandboxOptions["clock"]): Clock {
  if (option === undefined || option === "virtual") return createVirtualClock();
  if (option === "real") return createRealClock();
  return option;
}

export function createSandboxCore(options: SandboxOptions = {}): SandboxCore {
  const fixtures = resolveFixtures(options.fixtures);
  const carrierKey = options.carrierKey ?? fixtures?.carrier.api_key;
  if (!carrierKey)
    throw new Error("a carrier key is needed: pass carrierKey, or fixtures that define carrier.api_key");
  const seed = options.seed ?? 1;
  const clock = createClock(options.clock);
  const store = createStore();
  const ids = createIdGenerator(seed);
  const engine: EngineContext = { store, clock, ids };
  const settings: SandboxSettings = { carrierKey, adminToken: options.adminToken, version };

  const reset = (to: "fixtures" | "empty" = "fixtures") => {
    ids.setState(createIdGenerator(seed).state());
    store.clear();
    if (to === "fixtures" && fixtures) applyFixtures(engine, fixtures);
  };

  const snapshot = (): SandboxSnapshot => ({
    format: "voice-sandbox/1",
    clock: { now: clock.now() },
    ids: ids.state(),
    store: store.snapshot(),
  });

  const restore = (value: unknown) => {
    const candidate = value as Partial<SandboxSnapshot> | null;
    if (candidate?.format !== "voice-sandbox/1" || !Array.isArray(candidate.ids)) {
      throw new Error(
        'not a voice-sandbox snapshot (expected "format": "voice-sandbox/1" as GET /__sandbox/state gives)',
      );
    }
    // Validates every table before touching anything.
    store.restore(candidate.store);
    ids.setState(candidate.ids as IdGeneratorState);
  };

  reset("fixtures");
  const handle = createHandle(routes, { engine, settings, admin: { reset, snapshot, restore } });
  return { handle, clock, store, engine, settings, reset, snapshot, restore };
}
