// Plays a scenario in a fresh sandbox on the virtual clock: sets up, runs its steps in time order, checks expectations.
import { startStopwatch } from "../engine/time/clock.js";
import { agentResults } from "./agent-report.js";
import { createApiClient } from "./api-client.js";
import { resolveApps } from "./apps.js";
import { checkHeardSteps, checkUnplayedSteps } from "./caller-step-checks.js";
import { checkExpectation, checkUnexpectedAlerts } from "./expectations/check.js";
import type { CheckContext } from "./expectations/context.js";
import { type ScenarioFixtures, scenarioFixtures } from "./fixture-source.js";
import { createHandlerHost, type HandlerHost, scenarioBaseUrl } from "./handler-host.js";
import type { LoadedScenario } from "./load.js";
import { legTargets } from "./names.js";
import { createObserver, type Observer } from "./observe.js";
import type { PlayState } from "./play-state.js";
import { playSteps } from "./play-steps.js";
import type { PlayedSandbox } from "./played-sandbox.js";
import { defaultScenarioTimeoutMs } from "./references.js";
import type { ScenarioFailure, ScenarioResult, TraceEntry } from "./result.js";
import { checkSnapshot, type SnapshotMode } from "./snapshot-file.js";
import { timelineSnapshot } from "./timeline-snapshot.js";
import { setUpWorld, type World } from "./world.js";

export interface SandboxRecipe {
  /** A fixture file path, fixtures as data, `false` for none, or undefined for the owner's own fixtures. */
  fixtures: ScenarioFixtures;
  seed: number | string;
}

export interface ScenarioRunOptions {
  /** Base URL of the customer's app: handler paths not defined inline are requested there. */
  target?: string | undefined;
  /** Overrides the scenario's seed. */
  seed?: number | string | undefined;
  /** Overrides the scenario's `agent_turn_timeout`: real ms the sandbox waits for an agent's answer. */
  agentTurnTimeout?: number | undefined;
  /** WebSocket apps' URLs by name, over the file's `apps` (`{apps.name}` in inline markup). */
  apps?: Readonly<Record<string, string>> | undefined;
  /** Builds the fresh sandbox a scenario plays in (always on a virtual clock). */
  createSandbox: (recipe: SandboxRecipe) => PlayedSandbox;
  /** Receives the sandbox once the scenario has played (to keep or inspect its state). */
  onFinished?: ((core: PlayedSandbox) => void) | undefined;
  /** Lets go of the sandbox after the run; default: stop its clock (a fresh sandbox is thrown away). */
  release?: ((core: PlayedSandbox) => void) | undefined;
  /**
   * With `snapshot: true`: compare with the snapshot beside the file (writing it when missing, the
   * default), rewrite it ("update"), or only return the timeline ("off", e.g. for vitest's own snapshots).
   */
  snapshots?: SnapshotMode | "off" | undefined;
}

/** What a caller of `sandbox.runScenario` may choose. */
export interface RunScenarioOptions {
  /** Base URL of the customer's app for handler paths not defined inline. */
  target?: string | undefined;
  /** Overrides the scenario's seed. */
  seed?: number | string | undefined;
  /** Overrides the scenario's `agent_turn_timeout` (ms or a duration such as "10s"). */
  agentTurnTimeout?: number | string | undefined;
  /** URLs of the WebSocket apps the scenario names (`apps`), e.g. `{ echo: "ws://127.0.0.1:3002" }`. */
  apps?: Readonly<Record<string, string>> | undefined;
  /** Rewrite the timeline snapshot (`snapshot: true`) instead of comparing with it. */
  updateSnapshots?: boolean | undefined;
  /** Afterwards, this sandbox takes the scenario's final state (to look at it through the APIs). */
  keep?: boolean | undefined;
  /**
   * Play in this sandbox itself, so an app can call its APIs while the scenario plays: its state is
   * replaced by the scenario's world, its clock is virtual for the run and goes back to its mode after.
   */
  live?: boolean | undefined;
}

/** The scenario's timeline, compared with (or written to) the snapshot beside its file; a change is a failure. */
function takeSnapshot(
  loaded: LoadedScenario,
  core: PlayedSandbox,
  observer: Observer,
  host: HandlerHost,
  options: ScenarioRunOptions,
  failures: ScenarioFailure[],
): Pick<ScenarioResult, "timeline" | "snapshot"> {
  const timeline = timelineSnapshot(core, observer, host);
  const mode = options.snapshots ?? "compare";
  // A scenario that came from text, an object or a request body has no file to keep a snapshot beside.
  if (mode === "off" || loaded.origin !== "file") return { timeline };
  let outcome: ReturnType<typeof checkSnapshot>;
  try {
    outcome = checkSnapshot(loaded.file, loaded.scenario.name, timeline, mode);
  } catch (error) {
    failures.push({
      where: whereOf(loaded, ["snapshot"]),
      path: "snapshot",
      message: (error as Error).message,
    });
    return { timeline };
  }
  if (outcome.status === "differs") {
    failures.push({
      where: whereOf(loaded, ["snapshot"]),
      path: "snapshot",
      message: `the timeline differs from ${outcome.file} (- saved, + this run); if the change is right, run again with --update-snapshots`,
      diff: outcome.diff,
    });
  }
  return { timeline, snapshot: { status: outcome.status, file: outcome.file } };
}

/** Where a path of the scenario is written, as `file:line:col`. */
function whereOf(loaded: LoadedScenario, path: readonly (string | number)[]): string | null {
  const p = loaded.positionOf(path);
  return p ? `${p.file}:${p.line}:${p.column}` : null;
}

/** The expectation checks' view of the played sandbox, locating what they report. */
function checkContextOf(loaded: LoadedScenario, observer: Observer, host: HandlerHost): CheckContext {
  return { observer, host, where: (path) => whereOf(loaded, path) };
}

/**
 * Once every step has played: the expect_heard steps, caller steps left over, the file's `expect`, the
 * snapshot, and alerts no expectation names.
 */
function checkPlayed(
  state: PlayState,
  options: ScenarioRunOptions,
): Pick<ScenarioResult, "timeline" | "snapshot"> {
  const { loaded, check, failures } = state;
  const scenario = loaded.scenario;
  let snapshot: Pick<ScenarioResult, "timeline" | "snapshot"> = {};
  checkHeardSteps(state);
  checkUnplayedSteps(state);
  if (scenario.expect) failures.push(...checkExpectation(check, scenario.expect, ["expect"]));
  const expectations = [
    ...scenario.steps.flatMap((s) => (s.expect ? [s.expect] : [])),
    ...(scenario.expect ? [scenario.expect] : []),
  ];
  if (scenario.snapshot)
    snapshot = takeSnapshot(loaded, state.core, state.observer, state.host, options, failures);
  // An alerts expectation that failed has reported the alerts already.
  if (!failures.some((f) => /(^|\.)alerts(\.|$)/.test(f.path)))
    failures.push(...checkUnexpectedAlerts(check, expectations, scenario.allow_alerts));
  return snapshot;
}

/** Every request the sandbox made to the scenario's handlers and the target, for the report. */
function traceOf(observer: Observer): TraceEntry[] {
  return observer.requests("all").map((r) => ({
    at: String(r.at),
    kind: String(r.kind),
    method: String(r.method),
    url: String(r.url),
    status: (r.status as number | null) ?? null,
    params: r.params as Record<string, string>,
  }));
}

/** Plays one loaded scenario and reports its verdict; never throws for a failing scenario. */
export async function playScenario(
  loaded: LoadedScenario,
  options: ScenarioRunOptions,
): Promise<ScenarioResult> {
  const stopwatch = startStopwatch();
  const scenario = loaded.scenario;
  const seed = options.seed ?? scenario.seed ?? 1;
  const base: ScenarioResult = {
    name: scenario.name,
    file: loaded.file,
    status: "passed",
    failures: [],
    seed,
    calls: {},
    simulatedMs: 0,
    wallMs: 0,
    trace: [],
  };
  if (scenario.skip) return { ...base, status: "skipped", skipReason: scenario.skip, wallMs: stopwatch() };
  if (scenario.needs_target && !options.target)
    return {
      ...base,
      status: "skipped",
      skipReason: "needs a target app (--target URL)",
      wallMs: stopwatch(),
    };

  const apps = resolveApps(scenario, options.apps);
  if (apps.invalid.length > 0)
    return {
      ...base,
      status: "error",
      error: `apps: ${apps.invalid.join(", ")}: not a ws:// or wss:// URL (give each app as name=ws://host:port)`,
      wallMs: stopwatch(),
    };
  if (apps.missing.length > 0)
    return {
      ...base,
      status: "skipped",
      skipReason: `needs the URL of app ${apps.missing.join(", ")} (the apps option, --app name=ws://...)`,
      wallMs: stopwatch(),
    };

  let core: PlayedSandbox;
  try {
    core = options.createSandbox({ fixtures: scenarioFixtures(scenario, loaded.dir, loaded.origin), seed });
  } catch (error) {
    // A fixture file that cannot be read or does not validate, or fixtures the sandbox refuses.
    return { ...base, status: "error", error: `fixtures: ${(error as Error).message}`, wallMs: stopwatch() };
  }
  let observer: Observer | undefined;
  const host = createHandlerHost(scenario, options.target, apps.urls, (name) => observer?.sidOf(name));
  // The wait for agents' answers this scenario asks for; a sandbox played in live goes back to its own after.
  const turnTimeout = core.calls.streams.agentTurnTimeout;
  const ownTurnTimeout = turnTimeout.get();
  const wantedTurnTimeout = options.agentTurnTimeout ?? scenario.agent_turn_timeout;
  if (wantedTurnTimeout !== undefined) turnTimeout.set(wantedTurnTimeout);
  const unregister = core.webhooks.register(`${scenarioBaseUrl}/`, (request) => host.answer(request));
  const api = createApiClient(core);
  let state: PlayState | undefined;
  let snapshot: Pick<ScenarioResult, "timeline" | "snapshot"> = {};
  const origin = core.clock.now();
  try {
    let world: World;
    try {
      world = await setUpWorld(core, api, host, scenario);
    } catch (error) {
      return {
        ...base,
        status: "error",
        error: `setup failed: ${(error as Error).message}`,
        wallMs: stopwatch(),
      };
    }
    observer = createObserver(core, host, world.accountSid, origin, legTargets(scenario, world));
    const check = checkContextOf(loaded, observer, host);
    const limit = origin + (scenario.timeout ?? defaultScenarioTimeoutMs);
    const failures: ScenarioFailure[] = [];
    state = {
      loaded,
      core,
      api,
      host,
      world,
      observer,
      origin,
      limit,
      check,
      failures,
      scripts: new Map(),
      watches: [],
    };
    if (await playSteps(state)) snapshot = checkPlayed(state, options);
    options.onFinished?.(core);
    const trace = traceOf(observer);
    return {
      ...base,
      status: failures.length > 0 ? "failed" : "passed",
      failures,
      ...snapshot,
      calls: Object.fromEntries(observer.ids),
      simulatedMs: core.clock.now() - origin,
      wallMs: stopwatch(),
      trace,
      ...agentResults(core, observer, origin),
    };
  } catch (error) {
    return {
      ...base,
      status: "error",
      error: `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      failures: state?.failures ?? [],
      calls: observer ? Object.fromEntries(observer.ids) : {},
      wallMs: stopwatch(),
    };
  } finally {
    unregister();
    turnTimeout.set(ownTurnTimeout);
    if (options.release) options.release(core);
    else core.clock.dispose();
  }
}
