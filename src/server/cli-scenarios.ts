// The command line's scenario commands: `voice-sandbox run` plays scenario files, `voice-sandbox load` places many calls of one.
import { type Command, Option } from "commander";
import { parseAgentTurnTimeout } from "./config-file.js";

/** `--seed` as typed: a number when it is digits, else the text. */
const seedOf = (seed: string | undefined) =>
  seed === undefined ? undefined : /^\d+$/.test(seed) ? Number(seed) : seed;

/** The options `run` and `load` share. */
function sharedOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "-t, --target <url>",
        "base URL of your app: handler paths not defined inline are requested there",
      ).env("VOICE_SANDBOX_TARGET"),
    )
    .addOption(
      new Option("-r, --reporter <name>", "report format")
        .choices(["pretty", "junit", "json"])
        .env("VOICE_SANDBOX_REPORTER")
        .default("pretty"),
    )
    .addOption(
      new Option("-o, --output <file>", "write the report to this file (default: standard output)").env(
        "VOICE_SANDBOX_OUTPUT",
      ),
    )
    .addOption(
      new Option("--seed <seed>", "seed for ids, overriding each scenario's").env("VOICE_SANDBOX_SEED"),
    )
    .addOption(
      new Option(
        "-f, --fixtures <file>",
        "fixture file for scenarios that name none (default: the packaged fixtures)",
      ).env("VOICE_SANDBOX_FIXTURES"),
    )
    .addOption(
      new Option(
        "--agent-turn-timeout <duration>",
        "real time to wait for a <Connect> app that owes the caller an answer before noting that the agent did not answer, over each scenario's agent_turn_timeout (default 10s, at most 1m)",
      ).env("VOICE_SANDBOX_AGENT_TURN_TIMEOUT"),
    )
    .option(
      "-a, --app <name=url...>",
      "a WebSocket app's URL for {apps.name} in the scenarios' markup, e.g. echo=ws://127.0.0.1:3002 (repeatable)",
    );
}

/** The shared options read, or the usage error to print (exit code 2). */
async function readShared(
  name: string,
  options: Record<string, unknown>,
): Promise<{ apps?: Record<string, string>; agentTurnTimeout?: number } | { error: string }> {
  const { parseAppPairs } = await import("../scenarios/apps.js");
  let apps: Record<string, string> | undefined;
  try {
    apps = options.app ? parseAppPairs(options.app as string[]) : undefined;
  } catch (error) {
    return { error: `voice-sandbox ${name}: --app ${(error as Error).message}` };
  }
  let agentTurnTimeout: number | undefined;
  try {
    if (options.agentTurnTimeout !== undefined)
      agentTurnTimeout = parseAgentTurnTimeout(String(options.agentTurnTimeout));
  } catch (error) {
    return { error: `voice-sandbox ${name}: --agent-turn-timeout ${(error as Error).message}` };
  }
  return {
    ...(apps !== undefined ? { apps } : {}),
    ...(agentTurnTimeout !== undefined ? { agentTurnTimeout } : {}),
  };
}

export function addScenarioCommands(program: Command): void {
  sharedOptions(
    program
      .command("run")
      .description(
        "Play scenario files (paths or quoted globs), each in a fresh sandbox on a virtual clock. Exit code: 0 all passed, 1 a scenario failed, 2 a file did not load.",
      )
      .argument("<files...>", 'scenario files or globs, e.g. "scenarios/*.yaml"'),
  )
    .option("-u, --update-snapshots", "rewrite the timeline snapshots of scenarios with snapshot: true")
    .action(async (files: string[], options) => {
      const { runCommand } = await import("../scenarios/cli-run.js");
      const shared = await readShared("run", options);
      if ("error" in shared) {
        process.stderr.write(`${shared.error}\n`);
        process.exitCode = 2;
        return;
      }
      process.exitCode = await runCommand(files, { ...options, ...shared, seed: seedOf(options.seed) });
    });

  const load = sharedOptions(
    program
      .command("load")
      .description(
        "Place many concurrent calls of one scenario against your live agent on the real clock, each in a sandbox of its own, and print p50/p95/p99 of each agent metric; the scenario's expect.agent bounds are held against the whole run. Exit code: 0 passed, 1 a threshold or too many calls failed, 2 bad input.",
      )
      .argument("<file>", "the scenario file"),
  )
    .addOption(
      new Option("-n, --calls <count>", "calls to place in all (default 100)").env(
        "VOICE_SANDBOX_LOAD_CALLS",
      ),
    )
    .addOption(
      new Option(
        "-c, --concurrency <count>",
        "calls at once, at most --calls (default 10, or --calls when fewer)",
      ).env("VOICE_SANDBOX_LOAD_CONCURRENCY"),
    )
    .option("--max-failures <count>", "calls whose other expectations fail that the run allows (default 0)")
    .addOption(
      new Option(
        "--shard <i/n>",
        "play only shard i of n: the i-th of n consecutive blocks of the calls, each call with the number and seed it has in the whole run (merge the shards' JSON results with `load merge`)",
      ).env("VOICE_SANDBOX_LOAD_SHARD"),
    )
    .action(async (file: string, options) => {
      const { loadCommand } = await import("../scenarios/load/cli.js");
      const shared = await readShared("load", options);
      if ("error" in shared) {
        process.stderr.write(`${shared.error}\n`);
        process.exitCode = 2;
        return;
      }
      process.exitCode = await loadCommand(file, { ...options, ...shared, seed: seedOf(options.seed) });
    });

  load
    .command("merge")
    .description(
      "Merge the JSON results of a sharded load run's shards (--shard i/n, --reporter json) into the run's report: the same table, the thresholds held against the figures together. Exit code: 0 passed, 1 a threshold or too many calls failed, 2 files that are not every shard of one run.",
    )
    .argument("<files...>", "each shard's JSON result, in any order")
    .option("-o, --output <file>", "write the merged result as JSON to this file")
    .option("--junit <file>", "write the merged result as JUnit XML to this file")
    .action(async (files: string[], options: { output?: string; junit?: string }, command: Command) => {
      const { loadMergeCommand } = await import("../scenarios/load/merge-cli.js");
      // `load` reads -o/--output wherever it is written, before the subcommand does; its env value is no merge's.
      const parent = command.parent;
      const output =
        options.output ??
        (parent?.getOptionValueSource("output") === "cli" ? parent.opts().output : undefined);
      process.exitCode = await loadMergeCommand(files, { output, junit: options.junit });
    });
}
