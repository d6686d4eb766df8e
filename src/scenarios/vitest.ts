// The vitest helper (`voice-sandbox/vitest`): scenario files as test cases for `test.for` / `test.each`.
import { globSync, isDynamicPattern } from "tinyglobby";
import type { SandboxOptions } from "../sandbox.js";
import { type LoadedScenario, loadScenarioFile, ScenarioLoadError } from "./load.js";
import { formatResult } from "./reporters/pretty.js";
import type { ScenarioResult } from "./result.js";
import { playInFreshSandbox } from "./run-files.js";

export interface ScenarioTestOptions {
  /** Base URL of your app, for handler paths not defined inline (e.g. one your test started). */
  target?: string | (() => string) | undefined;
  /** Overrides every scenario's seed. */
  seed?: number | string | undefined;
  /** Overrides every scenario's `agent_turn_timeout`: ms or a duration such as "10s". */
  agentTurnTimeout?: number | string | undefined;
  /**
   * URLs of the WebSocket apps scenarios name (`apps`), e.g. `{ echo: "ws://127.0.0.1:3002" }`, or a function
   * read when the test runs (for an app your test starts on a free port).
   */
  apps?: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>) | undefined;
  /** Options of the sandboxes scenarios play in (fixtures, carrier key, webhook fetch...). */
  sandbox?: SandboxOptions | undefined;
  cwd?: string | undefined;
}

/** A scenario file as a test case: `name` for the title, `run()` plays it and throws a readable report if it fails. */
export interface ScenarioCase {
  name: string;
  file: string;
  /** Why the scenario is skipped (its `skip`), if it is. */
  skip?: string;
  /**
   * Plays the scenario. With vitest's test context (`test.for`), a skipped scenario is reported skipped;
   * without one it throws, so filter those out first (`.filter((s) => !s.skip)`). Resolves to nothing, as
   * vitest 4 and 5 type a test function's result (`Awaitable<void>`).
   */
  run(context?: VitestContext): Promise<void>;
  /** As `run`, resolving to the result (for a test that looks further into it). */
  play(context?: VitestContext): Promise<ScenarioResult>;
}

/**
 * What `run()` uses of vitest's test context: `skip`, and `expect` for a scenario with `snapshot: true`,
 * whose timeline then goes to vitest's own snapshot file (`toMatchSnapshot`, rewritten by `vitest -u`).
 */
export interface VitestContext {
  skip(note?: string): void;
  expect?: (value: unknown) => { toMatchSnapshot(): void };
}

/** Thrown by `run()` when a scenario fails: the message is the pretty report, with expected, actual and timeline. */
export class ScenarioFailedError extends Error {
  readonly result: ScenarioResult;
  constructor(result: ScenarioResult) {
    super(`\n${formatResult(result)}`);
    this.name = "ScenarioFailedError";
    this.result = result;
  }
}

/**
 * Scenario files (paths or globs, relative to `cwd`) as test cases, loaded now so test names are known:
 *
 *     test.for(scenarioTests("scenarios/*.yaml"))("$name", (scenario, ctx) => scenario.run(ctx));
 */
export function scenarioTests(
  patterns: string | readonly string[],
  options: ScenarioTestOptions = {},
): ScenarioCase[] {
  const cwd = options.cwd ?? process.cwd();
  const files: string[] = [];
  for (const pattern of typeof patterns === "string" ? [patterns] : patterns) {
    if (isDynamicPattern(pattern))
      files.push(...globSync(pattern, { cwd, onlyFiles: true, absolute: true }).sort());
    else files.push(pattern);
  }
  return [...new Set(files)].map((file): ScenarioCase => {
    let loaded: LoadedScenario | undefined;
    let loadError: string | undefined;
    try {
      loaded = loadScenarioFile(file);
    } catch (error) {
      if (!(error instanceof ScenarioLoadError)) throw error;
      loadError = error.message;
    }
    const skip = loaded?.scenario.skip;
    const play = async (context?: VitestContext): Promise<ScenarioResult> => {
      if (!loaded) throw new Error(`the scenario does not load:\n${loadError}`);
      if (skip) {
        if (context) context.skip(skip);
        throw new Error(`scenario "${loaded.scenario.name}" is marked skip: ${skip}`);
      }
      const target = typeof options.target === "function" ? options.target() : options.target;
      const result = await playInFreshSandbox(loaded, {
        target,
        apps: typeof options.apps === "function" ? options.apps() : options.apps,
        seed: options.seed,
        agentTurnTimeout: options.agentTurnTimeout,
        sandbox: options.sandbox,
        // With vitest's expect the timeline goes to its snapshot file, not beside the scenario.
        snapshots: context?.expect ? "off" : "compare",
      });
      if (result.status === "skipped" && context) context.skip(result.skipReason);
      if (result.status !== "passed") throw new ScenarioFailedError(result);
      if (result.timeline !== undefined && context?.expect) context.expect(result.timeline).toMatchSnapshot();
      return result;
    };
    return {
      name: loaded?.scenario.name ?? file,
      file,
      ...(skip ? { skip } : {}),
      play,
      async run(context) {
        await play(context);
      },
    };
  });
}
