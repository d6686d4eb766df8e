// A load run: many concurrent plays of one scenario on the real clock, each in a sandbox of its own, summed up in bounded figures.
import { createHash } from "node:crypto";
import { maxAgentTurnTimeoutMs } from "../../engine/media-streams/agent-turns.js";
import { startStopwatch } from "../../engine/time/clock.js";
import { parseDuration } from "../../engine/time/duration.js";
import type { SandboxOptions } from "../../sandbox-options.js";
import { resolveApps } from "../apps.js";
import { type LoadedScenario, loadScenarioFile, parseScenario } from "../load.js";
import type { PlayedSandbox } from "../played-sandbox.js";
import { playInFreshSandbox } from "../run-files.js";
import { whereIn } from "./gates.js";
import { loadHdr } from "./histograms.js";
import {
  type LoadMergeData,
  type LoadMetrics,
  type LoadProgress,
  type LoadResult,
  loadMergeFormat,
} from "./result.js";
import { type LoadShard, shardBlock } from "./shard.js";
import { createLoadTally, type LoadTally } from "./tally.js";
import { LoadUsageError } from "./usage-error.js";

export type { LoadMetrics, LoadProgress, LoadResult } from "./result.js";
export { maxFailuresShown } from "./tally.js";
export { LoadUsageError };

export interface LoadOptions {
  /** How many calls (plays of the scenario) to place in all. */
  calls: number;
  /** How many play at once (at most `calls`; default the smaller of 10 and `calls`). */
  concurrency?: number | undefined;
  /** Base URL of the customer's app, for handler paths not defined inline. */
  target?: string | undefined;
  /** URLs of the WebSocket apps the scenario names, by name. */
  apps?: Readonly<Record<string, string>> | undefined;
  /** The first play's seed (default the scenario's, or 1); play n has seed + n - 1 (a text seed: `seed-n`). */
  seed?: number | string | undefined;
  /** Real ms (or a duration) an owed answer is waited for before the turn counts as unanswered. */
  agentTurnTimeout?: number | string | undefined;
  /** Calls that may fail (their scenario's other expectations) before the run fails (default 0). */
  maxFailures?: number | undefined;
  /** Options of every play's sandbox (fixtures, carrier key...); the clock is always real. */
  sandbox?: SandboxOptions | undefined;
  /**
   * Play one shard of the run: its `calls` cut into `count` consecutive blocks, and only block `index`
   * (1-based) played, each call with the number and seed it has in the whole run (default: the whole run).
   */
  shard?: LoadShard | undefined;
  /** Called as each call ends. */
  onProgress?: ((progress: LoadProgress) => void) | undefined;
}

/** The options checked: positive whole numbers, concurrency at most the calls. */
function checkedCounts(options: LoadOptions): { calls: number; concurrency: number; maxFailures: number } {
  const whole = (name: string, value: unknown, min: number) => {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min)
      throw new LoadUsageError(`${name} must be a whole number, ${min} or more (got ${String(value)})`);
    return value;
  };
  const calls = whole("calls", options.calls, 1);
  const concurrency = whole("concurrency", options.concurrency ?? Math.min(10, calls), 1);
  if (concurrency > calls)
    throw new LoadUsageError(`concurrency (${concurrency}) must not be more than calls (${calls})`);
  return { calls, concurrency, maxFailures: whole("maxFailures", options.maxFailures ?? 0, 0) };
}

/** The wait for an owed answer, in ms; a usage error when it is not a duration from 0 to 1 minute. */
function checkedTurnTimeout(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  let ms: number;
  try {
    ms = parseDuration(value);
  } catch (error) {
    throw new LoadUsageError(`agentTurnTimeout: ${(error as Error).message}`);
  }
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > maxAgentTurnTimeoutMs)
    throw new LoadUsageError(`agentTurnTimeout must be from 0 to 1m (got ${String(value)})`);
  return ms;
}

/** The seed of play `n` (1-based): each play's sids differ from every other's. */
export function playSeed(base: number | string, n: number): number | string {
  return typeof base === "number" ? base + n - 1 : `${base}-${n}`;
}

/** The scenario without its `agent` thresholds, which the run holds against all its calls at once. */
function withoutAgentExpectations(loaded: LoadedScenario): LoadedScenario {
  const { expect } = loaded.scenario;
  if (!expect?.agent) return loaded;
  const { agent: _, ...rest } = expect;
  return { ...loaded, scenario: { ...loaded.scenario, expect: rest } };
}

/** Reads a scenario for a load run: a file path, YAML text (with a newline) or a loaded scenario. */
function loadFor(scenario: string | LoadedScenario): LoadedScenario {
  if (typeof scenario !== "string") return scenario;
  return scenario.includes("\n") ? parseScenario(scenario) : loadScenarioFile(scenario);
}

/** SHA-256 of the scenario as it loaded (its parsed value), the same wherever the same file is read. */
function scenarioDigest(loaded: LoadedScenario): string {
  return createHash("sha256").update(JSON.stringify(loaded.scenario)).digest("hex");
}

/** The figures, thresholds and verdict of the run once its calls are done. */
function finish(result: LoadResult, tally: LoadTally, loaded: LoadedScenario, seed: number | string) {
  const metricKeys = Object.keys(tally.metrics) as (keyof LoadMetrics)[];
  result.metrics = Object.fromEntries(
    metricKeys.map((k) => [k, tally.metrics[k].spread()]),
  ) as unknown as LoadMetrics;
  result.failures.sort((a, b) => a.call - b.call);
  result.thresholds = tally.gates.results(whereIn(loaded));
  result.passed =
    result.thresholds.every((t) => t.passed) &&
    result.failedCalls + result.erroredCalls <= result.maxFailures;
  const mergeable: LoadMergeData = {
    format: loadMergeFormat,
    scenario: scenarioDigest(loaded),
    seed,
    agent: loaded.scenario.expect?.agent ?? null,
    metrics: Object.fromEntries(
      metricKeys.map((k) => [k, tally.metrics[k].mergeable()]),
    ) as LoadMergeData["metrics"],
    gates: tally.gates.state(),
  };
  result.mergeable = mergeable;
}

/**
 * Places `calls` plays of the scenario, `concurrency` at once, on the real clock against live apps (or one
 * shard's block of them); returns the run's figures and its thresholds' verdicts. Throws LoadUsageError for
 * bad options, ScenarioLoadError for a scenario that does not load.
 */
export async function runLoad(scenario: string | LoadedScenario, options: LoadOptions): Promise<LoadResult> {
  const { calls, maxFailures, ...counted } = checkedCounts(options);
  const shard = shardBlock(calls, options.shard);
  const block = shard.lastCall - shard.firstCall + 1;
  // Every shard is given the run's options: a block shorter than the concurrency plays all its calls at once.
  const concurrency = Math.min(counted.concurrency, block);
  const agentTurnTimeout = checkedTurnTimeout(options.agentTurnTimeout);
  const loaded = loadFor(scenario);
  const s = loaded.scenario;
  if (s.skip) throw new LoadUsageError(`the scenario is skipped (${s.skip})`);
  if (s.needs_target && !options.target)
    throw new LoadUsageError("the scenario needs a target app (--target URL)");
  const apps = resolveApps(s, options.apps);
  if (apps.invalid.length > 0)
    throw new LoadUsageError(`apps: ${apps.invalid.join(", ")}: not a ws:// or wss:// URL`);
  if (apps.missing.length > 0)
    throw new LoadUsageError(
      `the scenario needs the URL of app ${apps.missing.join(", ")} (--app name=ws://...)`,
    );
  const perCall = withoutAgentExpectations(loaded);
  const tally = createLoadTally(await loadHdr(), s.expect?.agent);
  const base = options.seed ?? s.seed ?? 1;
  const stopwatch = startStopwatch();
  const result: LoadResult = {
    name: s.name,
    file: loaded.file,
    passed: false,
    calls: block,
    concurrency,
    passedCalls: 0,
    failedCalls: 0,
    erroredCalls: 0,
    maxFailures,
    failures: tally.failures,
    counts: tally.counts,
    metrics: {} as LoadMetrics,
    thresholds: [],
    shard,
    mergeable: {} as LoadMergeData,
    wallMs: 0,
    callsPerSecond: 0,
  };
  let next = shard.firstCall;
  let running = 0;
  let done = 0;

  const worker = async () => {
    while (next <= shard.lastCall) {
      const n = next++;
      running++;
      let core: PlayedSandbox | undefined;
      const outcome = await playInFreshSandbox(perCall, {
        target: options.target,
        apps: options.apps,
        // The seed call n has in the whole run, whichever shard plays it.
        seed: playSeed(base, n),
        agentTurnTimeout,
        sandbox: options.sandbox,
        snapshots: "off",
        clock: "real",
        // Kept until its frames are counted (take), then its sockets and timers go.
        release: (c) => {
          core = c;
        },
      });
      running--;
      done++;
      tally.take(n, outcome, core);
      result.passedCalls = tally.calls.passed;
      result.failedCalls = tally.calls.failed;
      result.erroredCalls = tally.calls.errored;
      options.onProgress?.({
        total: block,
        done,
        running,
        failed: result.failedCalls + result.erroredCalls,
        elapsedMs: stopwatch(),
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.wallMs = stopwatch();
  result.callsPerSecond = result.wallMs > 0 ? Math.round((block / result.wallMs) * 1000 * 100) / 100 : 0;
  finish(result, tally, loaded, base);
  return result;
}
