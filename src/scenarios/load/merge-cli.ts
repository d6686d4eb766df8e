// `voice-sandbox load merge`: the JSON results of a sharded load run's shards as one run's table, JSON and JUnit.
import { writeFileSync } from "node:fs";
import { FileReadError, readBoundedText } from "../../fixtures/bounded-read.js";
import { LoadMergeError, type LoadMergeInput, mergeLoadResults } from "./merge.js";
import { formatLoadResult, loadJsonReport, loadJunitReport } from "./report.js";

export interface LoadMergeCommandOptions {
  /** Where to write the merged result as JSON. */
  output?: string | undefined;
  /** Where to write the merged result as JUnit XML. */
  junit?: string | undefined;
}

/** One shard's result file, read and parsed; throws LoadMergeError naming the file. */
function readResult(file: string): LoadMergeInput {
  let text: string;
  try {
    text = readBoundedText(file);
  } catch (error) {
    if (error instanceof FileReadError) throw new LoadMergeError(`${file}: cannot read it (${error.reason})`);
    throw error;
  }
  try {
    return { result: JSON.parse(text), label: file };
  } catch {
    throw new LoadMergeError(
      `${file}: not JSON: write each shard's result with --reporter json --output <file>`,
    );
  }
}

/**
 * Merges the shard results and prints the run's report; returns the exit code: 0 passed, 1 a threshold or
 * too many calls failed (as a run's), 2 files that are not the shards of one run.
 */
export async function loadMergeCommand(files: string[], options: LoadMergeCommandOptions): Promise<number> {
  let merged: Awaited<ReturnType<typeof mergeLoadResults>>;
  try {
    merged = await mergeLoadResults(files.map(readResult));
  } catch (error) {
    if (!(error instanceof LoadMergeError)) throw error;
    process.stderr.write(`voice-sandbox load merge: ${error.message}\n`);
    return 2;
  }
  process.stdout.write(`${formatLoadResult(merged)}\n`);
  if (options.output) writeFileSync(options.output, loadJsonReport(merged));
  if (options.junit) writeFileSync(options.junit, loadJunitReport(merged));
  return merged.passed ? 0 : 1;
}
