// A load run: many concurrent plays of one scenario on the real clock, each in a sandbox of its own, summed up in bounded figures.
import { maxAgentTurnTimeoutMs } from "../../engine/media-streams/agent-turns.js";
import { startStopwatch } from "../../engine/time/clock.js";
import { parseDuration } from "../../engine/time/duration.js";
import type { SandboxOptions } from "../../sandbox-options.js";
import { resolveApps } from "../apps.js";
import { type LoadedScenario, loadScenarioFile, parseScenario } from "../load.js";
import type { PlayedSandbox } from "../played-sandbox.js";
import type { ScenarioResult } from "../result.js";
import { playInFreshSandbox } from "../run-files.js";
import { createLoadGates, type GateResult, type PlayedTurns } from "./gates.js";
import { createSampler, type LoadSpread } from "./samples.js";

/** The most failed calls a load run's result describes; the others are only counted. */
export const maxFailuresShown = 20;

/** Bad options or a scenario that cannot be played as a load (the CLI's exit code 2). */
export class LoadUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LoadUsageError";
  }
}

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
  /** Called as each call ends. */
  onProgress?: ((progress: LoadProgress) => void) | undefined;
}

export interface LoadProgress {
  total: number;
  done: number;
  running: number;
  failed: number;
  elapsedMs: number;
}

/** The figures of a load run, each a spread over its values (turns, calls or barge-ins). */
export interface LoadMetrics {
  /** Per turn answered: the end of the caller's turn to the agent's first audio or words. */
  responseMs: LoadSpread;
  /** Per barge-in the agent stopped for: the caller starting over it to its audio stopping. */
  bargeInStopMs: LoadSpread;
  /** Per call: how long caller and agent sounded at once. */
  talkOverMs: LoadSpread;
  /** Per call: the longest silence. */
  longestSilenceMs: LoadSpread;
  /** Per silence: how long neither sounded. */
  silenceMs: LoadSpread;
  /** Per call: the caller's turns. */
  turns: LoadSpread;
}

export interface LoadResult {
  name: string;
  file: string;
  passed: boolean;
  calls: number;
  concurrency: number;
  /** Calls whose play passed, failed (another expectation did not hold) or did not finish (error). */
  passedCalls: number;
  failedCalls: number;
  erroredCalls: number;
  maxFailures: number;
  /** The first failed calls to end (at most 20), in call order: which (1-based), its sid, and why. */
  failures: { call: number; sid: string | null; message: string }[];
  counts: {
    turns: number;
    answered: number;
    unanswered: number;
    late: number;
    bargeIns: number;
    /** Media frames that left more than a frame's time late, and frames dropped for an app too slow to read. */
    lateFrames: number;
    droppedFrames: number;
  };
  metrics: LoadMetrics;
  thresholds: GateResult[];
  wallMs: number;
  /** Calls ended per second of the run. */
  callsPerSecond: number;
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

/** Frames counted in the `stream.ended` entries of the play's calls. */
function frameCounts(core: PlayedSandbox, sids: readonly string[]): { late: number; dropped: number } {
  let late = 0;
  let dropped = 0;
  for (const sid of sids)
    for (const e of core.calls.timeline(sid))
      if (e.kind === "stream.ended") {
        late += Number(e.detail.lateFrames ?? 0);
        dropped += Number(e.detail.droppedFrames ?? 0);
      }
  return { late, dropped };
}

/** Reads a scenario for a load run: a file path, YAML text (with a newline) or a loaded scenario. */
function loadFor(scenario: string | LoadedScenario): LoadedScenario {
  if (typeof scenario !== "string") return scenario;
  return scenario.includes("\n") ? parseScenario(scenario) : loadScenarioFile(scenario);
}

/**
 * Places `calls` plays of the scenario, `concurrency` at once, on the real clock against live apps; returns
 * the run's figures and its thresholds' verdicts. Throws LoadUsageError for bad options, ScenarioLoadError
 * for a scenario that does not load.
 */
export async function runLoad(scenario: string | LoadedScenario, options: LoadOptions): Promise<LoadResult> {
  const { calls, concurrency, maxFailures } = checkedCounts(options);
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
  const gates = createLoadGates(s.expect?.agent);
  const base = options.seed ?? s.seed ?? 1;
  const stopwatch = startStopwatch();
  const samplers = {
    responseMs: createSampler(undefined, 11),
    bargeInStopMs: createSampler(undefined, 12),
    talkOverMs: createSampler(undefined, 13),
    longestSilenceMs: createSampler(undefined, 14),
    silenceMs: createSampler(undefined, 15),
    turns: createSampler(undefined, 16),
  };
  const result: LoadResult = {
    name: s.name,
    file: loaded.file,
    passed: false,
    calls,
    concurrency,
    passedCalls: 0,
    failedCalls: 0,
    erroredCalls: 0,
    maxFailures,
    failures: [],
    counts: { turns: 0, answered: 0, unanswered: 0, late: 0, bargeIns: 0, lateFrames: 0, droppedFrames: 0 },
    metrics: {} as LoadMetrics,
    thresholds: [],
    wallMs: 0,
    callsPerSecond: 0,
  };
  let next = 1;
  let running = 0;
  let done = 0;

  /** What one play adds to the run; the play's result and sandbox are let go of afterwards. */
  const take = (n: number, play: ScenarioResult, core: PlayedSandbox | undefined) => {
    const turnsByCall: Record<string, PlayedTurns[string]> = {};
    for (const [id, agent] of Object.entries(play.agents ?? {})) {
      turnsByCall[id] = agent.turns;
      const m = agent.metrics;
      samplers.turns.add(m.turns);
      samplers.talkOverMs.add(m.talkOverMs);
      samplers.longestSilenceMs.add(m.longestSilenceMs);
      for (const ms of m.silencesMs) samplers.silenceMs.add(ms);
      for (const t of agent.turns) {
        if (t.responseMs !== null) samplers.responseMs.add(t.responseMs);
        if (t.bargeIn?.stopMs != null) samplers.bargeInStopMs.add(t.bargeIn.stopMs);
      }
      const c = result.counts;
      c.turns += m.turns;
      c.answered += m.answered;
      c.unanswered += m.unanswered;
      c.late += m.late;
      c.bargeIns += m.bargeIns;
    }
    gates.observe(turnsByCall);
    if (core) {
      const frames = frameCounts(core, Object.values(play.calls));
      result.counts.lateFrames += frames.late;
      result.counts.droppedFrames += frames.dropped;
      // A call the scenario's time limit cut short must not keep its agent's socket open.
      core.calls.reset();
      core.clock.dispose();
    }
    if (play.status === "passed") result.passedCalls++;
    else {
      if (play.status === "error") result.erroredCalls++;
      else result.failedCalls++;
      if (result.failures.length < maxFailuresShown)
        result.failures.push({
          call: n,
          sid: Object.values(play.calls)[0] ?? null,
          message:
            play.error ?? (play.failures.map((f) => `${f.path}: ${f.message}`).join("; ") || play.status),
        });
    }
  };

  const worker = async () => {
    while (next <= calls) {
      const n = next++;
      running++;
      let core: PlayedSandbox | undefined;
      const outcome = await playInFreshSandbox(perCall, {
        target: options.target,
        apps: options.apps,
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
      take(n, outcome, core);
      options.onProgress?.({
        total: calls,
        done,
        running,
        failed: result.failedCalls + result.erroredCalls,
        elapsedMs: stopwatch(),
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  result.wallMs = stopwatch();
  result.callsPerSecond = result.wallMs > 0 ? Math.round((calls / result.wallMs) * 1000 * 100) / 100 : 0;
  result.metrics = Object.fromEntries(
    Object.entries(samplers).map(([key, sampler]) => [key, sampler.spread()]),
  ) as unknown as LoadMetrics;
  result.failures.sort((a, b) => a.call - b.call);
  result.thresholds = gates.results(loaded);
  result.passed =
    result.thresholds.every((t) => t.passed) && result.failedCalls + result.erroredCalls <= maxFailures;
  return result;
}
