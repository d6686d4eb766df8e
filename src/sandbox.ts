// The composition root: one state, one clock, one id generator, one route table behind `handle`.
import { createIdGenerator, type IdGeneratorState } from "./domain/ids.js";
import { createStore, type Store } from "./domain/store.js";
import type { StoreLoader } from "./domain/store-stream.js";
import { createCreditHolds } from "./engine/billing/credit-holds.js";
import { foldCharges } from "./engine/billing/usage-records.js";
import { createCookieJars } from "./engine/callbacks/webhook-cookies.js";
import { type CallEngine, createCallEngine } from "./engine/calls/call-engine.js";
import type { EngineContext, RecordRetention } from "./engine/context/context.js";
import type { FaultRegistry } from "./engine/context/fault-types.js";
import { createFaultRegistry } from "./engine/context/faults.js";
import {
  createRetentionControl,
  defaultRecordRetention,
  type RetentionControl,
} from "./engine/context/retention.js";
import { type FrameSenders, sharedFrameSenders } from "./engine/media-streams/frame-senders.js";
import { type Clock, createRealClock, createVirtualClock } from "./engine/time/clock.js";
import { parseDuration } from "./engine/time/duration.js";
import { createSwitchableClock, type SwitchableClock } from "./engine/time/switchable-clock.js";
import { applyFixtures } from "./fixtures/apply.js";
import { loadDefaultFixtures } from "./fixtures/default-fixtures.js";
import { loadFixtureFile, parseFixtures } from "./fixtures/load.js";
import { type FixtureFile, fixtureFileSchema } from "./fixtures/schema.js";
import { createHealthBoard, type HealthBoard } from "./http/admin-api/health-board.js";
import type { StateCapture, StateHeader } from "./http/admin-api/state-stream.js";
import { createHandle, type Handle } from "./http/handle.js";
import { createRequestJournal, type RequestJournal } from "./http/request-journal.js";
import { routes } from "./http/routes.js";
import type { SandboxSettings, ScenarioPlayer } from "./http/services.js";
import { codeFile, defaultFixturesPath } from "./package-files.js";
import type { SandboxOptions } from "./sandbox-options.js";
import type { ScenarioSource } from "./scenarios/input.js";
import type { ScenarioResult } from "./scenarios/result.js";
import type { RunScenarioOptions, SandboxRecipe } from "./scenarios/runner.js";
import { version } from "./version.js";
import { createWebhookDispatcher, type WebhookDispatcher } from "./webhooks/dispatcher.js";
import { createSettle } from "./webhooks/settle.js";

export type { SandboxOptions };

export interface SandboxSnapshot {
  format: "voice-sandbox/1";
  clock: { now: number };
  ids: IdGeneratorState;
  store: ReturnType<Store["snapshot"]>;
}

export interface SandboxCore {
  /** The core on plain values: every door calls this. */
  handle: Handle;
  /** The sandbox clock; `switchTo("real" | "virtual")` changes its mode at run time. */
  readonly clock: SwitchableClock;
  readonly store: Store;
  readonly engine: EngineContext;
  readonly settings: SandboxSettings;
  /** Back to the fixtures (default) or to an empty sandbox; ids restart from the seed. */
  reset(to?: "fixtures" | "empty"): void;
  snapshot(): SandboxSnapshot;
  restore(snapshot: unknown): void;
  /** Injected faults (`/__sandbox/faults`); cleared by `reset()`. */
  readonly faults: FaultRegistry;
  /** The latest requests (`/__sandbox/requests`). */
  readonly requests: RequestJournal;
  /** Requests to customers' URLs: `.deliveries` (the log), `.register(urlPrefix, fn)`, `.idle()`, `.clear()`. */
  readonly webhooks: WebhookDispatcher;
  /** Runs the timers due now and waits until no webhook is queued or in flight. */
  settle(): Promise<void>;
  /** The whole state at this instant, read lazily: streamed exports and compaction use it. */
  captureState(): StateCapture;
  /** Puts a state read by a StoreLoader in place of the live one, at once (streamed imports, restart). */
  restoreLoaded(header: StateHeader, loader: StoreLoader): void;
  /** The bound on finished records (`retain`): paused while a data directory replays, and swept after. */
  readonly retention: RetentionControl;
  /** What `GET /__sandbox/health` reports besides "ok" (a data directory that refuses writes). */
  readonly health: HealthBoard;
  /** Calls `listener` after `reset()` or `restore()` replaced the whole state (persistence snapshots then). */
  onStateReplaced(listener: () => void): () => void;
  /**
   * The call engine: `ring({from, to, caller})` rings an incoming number, `setParty(number, behaviour)` scripts
   * the far end, `timeline(callSid)`, `heard(callSid)`, `alerts()`, `press`/`speak` on a live call.
   */
  readonly calls: CallEngine;
  /**
   * Plays a scenario (file path, YAML text or object) in a fresh sandbox built like this one, on a virtual
   * clock, and gives its verdict. `keep: true` then puts the scenario's final state into this sandbox.
   */
  runScenario(source: ScenarioSource, options?: RunScenarioOptions): Promise<ScenarioResult>;
}

/**
 * The scenario player (format, loader, runner), loaded by the first scenario a sandbox plays: its schemas
 * were a fifth of those a server start built, for a feature most starts never use (docs/decisions.md).
 */
let scenarioPlayer: Promise<typeof import("./scenarios/player.js")> | undefined;
const loadScenarioPlayer = () => (scenarioPlayer ??= import("./scenarios/player.js"));

export { defaultFixturesPath, packageRoot } from "./package-files.js";
export { version };

function resolveFixtures(fixtures: SandboxOptions["fixtures"]): FixtureFile | null {
  if (fixtures === false) return null;
  if (fixtures === undefined || fixtures === defaultFixturesPath) return loadDefaultFixtures();
  if (typeof fixtures === "string") {
    return fixtures.trimStart().startsWith("carrier:") ? parseFixtures(fixtures) : loadFixtureFile(fixtures);
  }
  return fixtureFileSchema.parse(fixtures);
}

/** The sandbox's frame senders: the process's threads of that size, or none (0: frames leave from the main thread). */
function frameSendersFor(threads: number | undefined): FrameSenders | null {
  if (threads !== undefined && (!Number.isSafeInteger(threads) || threads < 0 || threads > 64))
    throw new RangeError(`streams.senderThreads must be a whole number from 0 to 64 (got ${threads})`);
  if (threads === 0) return null;
  return sharedFrameSenders(codeFile("engine", "media-streams", "frame-sender.worker.mjs"), threads);
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
  const clock = createSwitchableClock(createClock(options.clock));
  const store = createStore();
  const ids = createIdGenerator(seed);
  const faults = createFaultRegistry();
  const requests = createRequestJournal(options.journalLimit);
  const webhooks = createSandboxWebhooks(clock, options.webhooks);
  const replaced = new Set<() => void>();
  const retain: RecordRetention | false = options.retain ?? defaultRecordRetention;
  const eventAge = retain === false ? undefined : retain.maxAgeMs;
  const events = eventAge !== undefined ? { maxAgeMs: eventAge, ...options.events } : options.events;
  const engine: EngineContext = {
    store,
    clock,
    ids,
    faults,
    webhooks,
    holds: createCreditHolds(),
    ...(events ? { eventRetention: events } : {}),
    ...(retain === false ? {} : { recordRetention: retain }),
    usageTotals: { fold: (entries) => foldCharges(engine, entries) },
    ...(fixtures?.carrier.alphanumeric_sender_countries
      ? { alphanumericSenderCountries: fixtures.carrier.alphanumeric_sender_countries }
      : {}),
  };
  const retention = createRetentionControl(engine);
  const settings: SandboxSettings = { carrierKey, adminToken: options.adminToken, version };
  const baseOption = options.publicBaseUrl ?? "https://api.voice-sandbox.test";
  // A function lets the standalone server name the address it actually bound (port 0 picks one).
  const publicBaseUrl = () =>
    (typeof baseOption === "function" ? baseOption() : baseOption).replace(/\/+$/, "");
  const calls = createCallEngine(engine, {
    publicBaseUrl,
    ...(options.finishedCallsKept !== undefined ? { finishedCallsKept: options.finishedCallsKept } : {}),
    ...(options.streams?.maxQueuedBytes !== undefined
      ? { maxQueuedStreamBytes: options.streams.maxQueuedBytes }
      : {}),
    ...(options.transcriber ? { transcriber: options.transcriber } : {}),
    ...(options.agentTurnTimeout !== undefined
      ? { agentTurnTimeoutMs: parseDuration(options.agentTurnTimeout) }
      : {}),
    frameSenders: frameSendersFor(options.streams?.senderThreads),
  });

  const state = createStateControl({ seed, fixtures, engine, calls, faults, requests, webhooks, replaced });
  const { reset, snapshot, restore, captureState, restoreLoaded, onStateReplaced } = state;
  const health = createHealthBoard();

  let self: SandboxCore | undefined;
  const { runScenario, scenarios } = createScenarioRunning(options, clock, state, () => self!);

  reset("fixtures");
  const handle = createHandle(routes, {
    context: engine,
    calls,
    settings,
    admin: { reset, snapshot, restore, captureState, restoreLoaded },
    health,
    journal: requests,
    webhooks,
    scenarios,
  });
  self = {
    handle,
    clock,
    store,
    engine,
    settings,
    reset,
    snapshot,
    restore,
    faults,
    requests,
    onStateReplaced,
    captureState,
    restoreLoaded,
    health,
    retention,
    webhooks,
    settle: createSettle(clock, webhooks),
    calls,
    runScenario,
  };
  return self;
}

/** The sandbox's webhook dispatcher, its latency read on the sandbox clock. */
function createSandboxWebhooks(
  clock: SwitchableClock,
  option: SandboxOptions["webhooks"],
): WebhookDispatcher {
  const { fetch: webhookFetch, ...webhookOptions } = option ?? {};
  return createWebhookDispatcher(
    {
      clock,
      userAgent: `TwilioProxy/1.1 (voice-sandbox/${version})`,
      cookies: createCookieJars(),
      // Latency is read on the sandbox clock: real latency on a real clock, and on a virtual clock the
      // simulated one (time stands still while a request is out), so logs repeat byte for byte.
      elapsed: () => (clock.mode === "virtual" ? clock.now() : performance.now()),
      ...(webhookFetch ? { fetch: webhookFetch } : {}),
    },
    webhookOptions,
  );
}

/** What replacing or reading the whole state touches besides the store. */
interface StateParts {
  seed: number | string;
  fixtures: FixtureFile | null;
  engine: EngineContext;
  calls: CallEngine;
  faults: FaultRegistry;
  requests: RequestJournal;
  webhooks: WebhookDispatcher;
  /** Told after each reset or restore (persistence snapshots then). */
  replaced: Set<() => void>;
}

/** The sandbox-wide state operations: reset, snapshot and restore, and their lazy, streamed forms. */
interface StateControl {
  reset(to?: "fixtures" | "empty"): void;
  snapshot(): SandboxSnapshot;
  restore(value: unknown): void;
  captureState(): StateCapture;
  restoreLoaded(header: StateHeader, loader: StoreLoader): void;
  onStateReplaced(listener: () => void): () => void;
}

function createStateControl(parts: StateParts): StateControl {
  const { seed, fixtures, engine, calls, faults, requests, webhooks, replaced } = parts;
  const { store, clock, ids } = engine;

  const reset = (to: "fixtures" | "empty" = "fixtures") => {
    ids.setState(createIdGenerator(seed).state());
    calls.reset();
    store.clear();
    if (to === "fixtures" && fixtures) applyFixtures(engine, fixtures);
    faults.clear();
    requests.clear();
    webhooks.clear();
    for (const listener of replaced) listener();
  };

  const snapshot = (): SandboxSnapshot => ({
    format: "voice-sandbox/1",
    clock: { now: clock.now() },
    ids: ids.state(),
    store: store.snapshot(),
  });

  const captureState = (): StateCapture => ({
    header: { format: "voice-sandbox/1", clock: { now: clock.now() }, ids: ids.state() },
    tables: store.capture(),
  });
  const restoreLoaded = (header: StateHeader, loader: StoreLoader) => {
    loader.commit();
    calls.reset();
    ids.setState(header.ids);
    for (const listener of replaced) listener();
  };

  const restore = (value: unknown) => {
    const candidate = value as Partial<SandboxSnapshot> | null;
    if (candidate?.format !== "voice-sandbox/1" || !Array.isArray(candidate.ids)) {
      throw new Error(
        'not a voice-sandbox snapshot (expected "format": "voice-sandbox/1" as GET /__sandbox/state gives)',
      );
    }
    // Validates every table before touching anything.
    store.restore(candidate.store);
    calls.reset();
    ids.setState(candidate.ids as IdGeneratorState);
    for (const listener of replaced) listener();
  };
  const onStateReplaced = (listener: () => void) => {
    replaced.add(listener);
    return () => replaced.delete(listener);
  };
  return { reset, snapshot, restore, captureState, restoreLoaded, onStateReplaced };
}

/**
 * Playing scenarios from this sandbox: in a fresh sandbox built like it (its options, a virtual clock), or
 * live in this one; `scenarios` is the same for YAML posted to the admin API.
 */
function createScenarioRunning(
  options: SandboxOptions,
  clock: SwitchableClock,
  state: StateControl,
  self: () => SandboxCore,
): { runScenario: SandboxCore["runScenario"]; scenarios: ScenarioPlayer } {
  const { reset, restore } = state;
  const runScenario = async (source: ScenarioSource, run: RunScenarioOptions = {}) => {
    const { loadScenario, playScenario } = await loadScenarioPlayer();
    const fresh = (recipe: SandboxRecipe) =>
      createSandboxCore({
        ...options,
        clock: "virtual",
        seed: recipe.seed,
        ...(recipe.fixtures !== undefined ? { fixtures: recipe.fixtures } : {}),
      });
    const mode = clock.mode;
    // Live: this sandbox takes the scenario's starting world (a fresh one's snapshot) and virtual time.
    const live = (recipe: SandboxRecipe) => {
      reset();
      restore(fresh(recipe).snapshot());
      clock.switchTo("virtual");
      return self();
    };
    return playScenario(loadScenario(source), {
      target: run.target,
      apps: run.apps,
      seed: run.seed,
      agentTurnTimeout: run.agentTurnTimeout === undefined ? undefined : parseDuration(run.agentTurnTimeout),
      snapshots: run.updateSnapshots ? "update" : "compare",
      createSandbox: run.live ? live : fresh,
      onFinished: run.keep && !run.live ? (played) => restore(played.snapshot()) : undefined,
      release: run.live ? () => clock.switchTo(mode) : undefined,
    });
  };
  const scenarios: ScenarioPlayer = {
    async run(yaml, run) {
      const { parseScenarioText, ScenarioLoadError } = await loadScenarioPlayer();
      let loaded: ReturnType<typeof parseScenarioText>;
      try {
        loaded = parseScenarioText(yaml);
      } catch (error) {
        if (error instanceof ScenarioLoadError) return { loaded: false, message: error.message };
        throw error;
      }
      return { loaded: true, result: await runScenario(loaded, run) };
    },
  };
  return { runScenario, scenarios };
}
