// Plays scenario files (paths or globs) one after the other, each in a fresh sandbox, and sums up the run.
import { isAbsolute } from "node:path";
import { glob, isDynamicPattern } from "tinyglobby";
import { startStopwatch } from "../engine/time/clock.js";
import { parseDuration } from "../engine/time/duration.js";
import { createSandboxCore, type SandboxOptions } from "../sandbox.js";
import { type LoadedScenario, loadScenarioFile, ScenarioLoadError } from "./load.js";
import type { RunSummary, ScenarioResult } from "./result.js";
import { playScenario, type ScenarioRunOptions } from "./runner.js";

export interface RunFilesOptions {
  /** Base URL of the customer's app, for handler paths not defined inline. */
  target?: string | undefined;
  /** Overrides every scenario's seed. */
  seed?: number | string | undefined;
  /** Overrides every scenario's `agent_turn_timeout`: ms or a duration such as "10s". */
  agentTurnTimeout?: number | string | undefined;
  /** URLs of the WebSocket apps scenarios name (`apps`), by name. */
  apps?: Readonly<Record<string, string>> | undefined;
  /** Rewrite the timeline snapshots of scenarios with `snapshot: true` instead of comparing them. */
  updateSnapshots?: boolean | undefined;
  /** Options of the sandboxes scenarios play in (fixtures, carrier key...); the clock is always virtual. */
  sandbox?: SandboxOptions | undefined;
  cwd?: string | undefined;
  /** Called as each scenario finishes (progress). */
  onResult?: ((result: ScenarioResult) => void) | undefined;
  onLoadError?: ((file: string, message: string) => void) | undefined;
}

/** Files matching the patterns, sorted, each once; a plain path is kept even when missing (it fails to load). */
export async function expandScenarioFiles(
  patterns: readonly string[],
  cwd = process.cwd(),
): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    // An absolute pattern gives absolute paths, a relative one paths relative to cwd, as written.
    if (isDynamicPattern(pattern))
      files.push(...(await glob(pattern, { cwd, onlyFiles: true, absolute: isAbsolute(pattern) })).sort());
    else files.push(pattern);
  }
  return [...new Set(files)];
}

/** An `agentTurnTimeout` as options give it (ms or a duration), in ms. */
export const turnTimeoutMs = (value: number | string | undefined) =>
  value === undefined ? undefined : parseDuration(value);

/**
 * Plays one loaded scenario in a fresh sandbox made from `options.sandbox`, on the virtual clock (a load run
 * asks for the real one).
 */
export function playInFreshSandbox(
  loaded: LoadedScenario,
  options: Pick<
    RunFilesOptions,
    "target" | "seed" | "agentTurnTimeout" | "apps" | "sandbox" | "updateSnapshots"
  > & {
    snapshots?: ScenarioRunOptions["snapshots"];
    clock?: "virtual" | "real" | undefined;
    release?: ScenarioRunOptions["release"];
  },
): Promise<ScenarioResult> {
  return playScenario(loaded, {
    target: options.target,
    apps: options.apps,
    seed: options.seed,
    agentTurnTimeout: turnTimeoutMs(options.agentTurnTimeout),
    snapshots: options.snapshots ?? (options.updateSnapshots ? "update" : "compare"),
    release: options.release,
    createSandbox: (recipe) =>
      createSandboxCore({
        ...options.sandbox,
        clock: options.clock ?? "virtual",
        seed: recipe.seed,
        ...(recipe.fixtures !== undefined ? { fixtures: recipe.fixtures } : {}),
      }),
  });
}

export async function runScenarioFiles(
  patterns: readonly string[],
  options: RunFilesOptions = {},
): Promise<RunSummary> {
  const stopwatch = startStopwatch();
  const files = await expandScenarioFiles(patterns, options.cwd);
  const summary: RunSummary = {
    results: [],
    loadErrors: [],
    passed: 0,
    failed: 0,
    skipped: 0,
    errors: 0,
    wallMs: 0,
  };
  for (const file of files) {
    let loaded: LoadedScenario;
    try {
      loaded = loadScenarioFile(file);
    } catch (error) {
      if (!(error instanceof ScenarioLoadError)) throw error;
      summary.loadErrors.push({ file, message: error.message });
      options.onLoadError?.(file, error.message);
      continue;
    }
    const result = await playInFreshSandbox(loaded, options);
    summary.results.push(result);
    if (result.status === "passed") summary.passed++;
    else if (result.status === "failed") summary.failed++;
    else if (result.status === "skipped") summary.skipped++;
    else summary.errors++;
    options.onResult?.(result);
  }
  summary.wallMs = stopwatch();
  return summary;
}

/** The exit code a run deserves: 2 when a file did not load, 1 on any failure or error, else 0. */
export function exitCodeOf(summary: RunSummary): number {
  if (summary.loadErrors.length > 0) return 2;
  return summary.failed > 0 || summary.errors > 0 ? 1 : 0;
}
