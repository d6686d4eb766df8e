// `voice-sandbox run`: plays scenario files, prints progress and a summary, writes a JUnit or JSON report.
import { writeFileSync } from "node:fs";
import { jsonReport } from "./reporters/json.js";
import { junitReport } from "./reporters/junit.js";
import { formatResult, formatSummary } from "./reporters/pretty.js";
import { exitCodeOf, runScenarioFiles } from "./run-files.js";

export type ReporterName = "pretty" | "junit" | "json";

export interface RunCommandOptions {
  target?: string | undefined;
  /** WebSocket apps' URLs by name (`--app name=url`). */
  apps?: Record<string, string> | undefined;
  reporter: ReporterName;
  output?: string | undefined;
  seed?: number | string | undefined;
  /** Overrides every scenario's `agent_turn_timeout` (`--agent-turn-timeout`): ms or a duration. */
  agentTurnTimeout?: number | string | undefined;
  fixtures?: string | undefined;
  /** Rewrite timeline snapshots instead of comparing them. */
  updateSnapshots?: boolean | undefined;
}

/** Runs the files and returns the exit code: 0 all passed, 1 a failure, 2 a file that does not load. */
export async function runCommand(patterns: string[], options: RunCommandOptions): Promise<number> {
  // A machine report on standard output keeps it clean: progress then goes to standard error.
  const reportToStdout = options.reporter !== "pretty" && options.output === undefined;
  const progress = (text: string) => (reportToStdout ? process.stderr : process.stdout).write(`${text}\n`);
  const summary = await runScenarioFiles(patterns, {
    target: options.target,
    apps: options.apps,
    seed: options.seed,
    agentTurnTimeout: options.agentTurnTimeout,
    updateSnapshots: options.updateSnapshots,
    sandbox: options.fixtures ? { fixtures: options.fixtures } : undefined,
    onResult: (result) => progress(formatResult(result)),
    onLoadError: (file, message) => progress(`! ${file} did not load:\n${message.replace(/^/gm, "  ")}`),
  });
  if (summary.results.length + summary.loadErrors.length === 0) {
    process.stderr.write(`voice-sandbox run: no scenario files match ${patterns.join(" ")}\n`);
    return 2;
  }
  progress(formatSummary(summary, { details: false }));
  if (options.reporter !== "pretty" || options.output) {
    const report =
      options.reporter === "junit"
        ? junitReport(summary)
        : options.reporter === "json"
          ? jsonReport(summary)
          : `${summary.results.map(formatResult).join("\n")}\n${formatSummary(summary)}\n`;
    if (options.output) writeFileSync(options.output, report);
    else process.stdout.write(report);
  }
  return exitCodeOf(summary);
}
