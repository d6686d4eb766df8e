// `voice-sandbox load`: a load run of one scenario file, with progress, the table of percentiles and a CI report.
import { existsSync, writeFileSync } from "node:fs";
import { ScenarioLoadError } from "../load.js";
import { formatLoadResult, loadJsonReport, loadJunitReport } from "./report.js";
import { type LoadProgress, LoadUsageError, runLoad } from "./run.js";
import { parseLoadShard } from "./shard.js";

export interface LoadCommandOptions {
  /** As typed: checked here, so a bad value is a usage error (exit code 2). */
  calls?: string | undefined;
  concurrency?: string | undefined;
  maxFailures?: string | undefined;
  /** `i/n`: play shard i of n of the run's calls. */
  shard?: string | undefined;
  target?: string | undefined;
  apps?: Record<string, string> | undefined;
  seed?: number | string | undefined;
  agentTurnTimeout?: number | string | undefined;
  fixtures?: string | undefined;
  reporter: "pretty" | "junit" | "json";
  output?: string | undefined;
}

/** A count as typed on the command line; throws a usage error naming the flag. */
function count(flag: string, value: string | undefined, fallback: number | undefined, min: number) {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim()) || Number(value) < min)
    throw new LoadUsageError(
      `--${flag} must be a whole number, ${min} or more (got ${JSON.stringify(value)})`,
    );
  return Number(value);
}

/** One line of progress: rewritten in place on a terminal, a plain line every tenth of the run otherwise. */
export function progressWriter(stream: Pick<NodeJS.WriteStream, "write" | "isTTY">) {
  const tty = stream.isTTY === true;
  let shown = 0;
  let written = false;
  const line = (p: LoadProgress) =>
    `load: ${p.done}/${p.total} calls done, ${p.running} running, ${p.failed} failed, ${(p.elapsedMs / 1000).toFixed(1)} s`;
  return {
    update(p: LoadProgress) {
      if (tty) {
        written = true;
        stream.write(`\r\x1b[2K${line(p)}`);
      } else if (p.done === p.total || p.done - shown >= Math.max(1, Math.ceil(p.total / 10))) {
        shown = p.done;
        stream.write(`${line(p)}\n`);
      }
    },
    end() {
      if (written) stream.write("\n");
    },
  };
}

/** Runs the load and returns the exit code: 0 passed, 1 a threshold or too many calls failed, 2 bad input. */
export async function loadCommand(file: string, options: LoadCommandOptions): Promise<number> {
  const reportToStdout = options.reporter !== "pretty" && options.output === undefined;
  const out = reportToStdout ? process.stderr : process.stdout;
  const usage = (message: string) => {
    process.stderr.write(`voice-sandbox load: ${message}\n`);
    return 2;
  };
  if (!existsSync(file)) return usage(`${file}: no such scenario file`);
  const progress = progressWriter(out);
  let result: Awaited<ReturnType<typeof runLoad>>;
  try {
    const calls = count("calls", options.calls, 100, 1)!;
    result = await runLoad(file, {
      calls,
      concurrency: count("concurrency", options.concurrency, undefined, 1),
      maxFailures: count("max-failures", options.maxFailures, 0, 0),
      shard: options.shard === undefined ? undefined : parseLoadShard(options.shard),
      target: options.target,
      apps: options.apps,
      seed: options.seed,
      agentTurnTimeout: options.agentTurnTimeout,
      sandbox: options.fixtures ? { fixtures: options.fixtures } : undefined,
      onProgress: (p) => progress.update(p),
    });
  } catch (error) {
    if (error instanceof LoadUsageError) return usage(error.message);
    if (error instanceof ScenarioLoadError) return usage(`${file} did not load:\n${error.message}`);
    throw error;
  } finally {
    progress.end();
  }
  out.write(`${formatLoadResult(result)}\n`);
  if (options.reporter !== "pretty" || options.output) {
    const report =
      options.reporter === "junit"
        ? loadJunitReport(result)
        : options.reporter === "json"
          ? loadJsonReport(result)
          : `${formatLoadResult(result)}\n`;
    if (options.output) writeFileSync(options.output, report);
    else process.stdout.write(report);
  }
  return result.passed ? 0 : 1;
}
