// The results of a sharded load run's shards as the one run's: figures added up, thresholds held again against them.
import { type AgentThresholds, gateResultsOf, mergeGateStates, type WhereOf } from "./gates.js";
import { type Hdr, loadHdr, mergedMergeable, mergedSpread } from "./histograms.js";
import { type LoadResultInput, loadResultInput, metricKeys } from "./merge-input.js";
import { type LoadMergeData, type LoadMetrics, type LoadResult, loadMergeFormat } from "./result.js";
import { blockCalls } from "./shard.js";
import { emptyCounts, maxFailuresShown } from "./tally.js";

/** Shard results that cannot be merged: not a load result, another scenario or run, or shards twice or missing. */
export class LoadMergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LoadMergeError";
  }
}

/** A result to merge, and what to call it in errors (its file). */
export interface LoadMergeInput {
  result: unknown;
  label: string;
}

/** Each input checked as a load result with mergeable figures this version reads. */
function readInputs(inputs: readonly LoadMergeInput[]): { label: string; result: LoadResultInput }[] {
  if (inputs.length === 0) throw new LoadMergeError("no results to merge: give the result of every shard");
  return inputs.map(({ result, label }) => {
    const format = (result as { mergeable?: { format?: unknown } } | null)?.mergeable?.format;
    if (format !== undefined && format !== loadMergeFormat)
      throw new LoadMergeError(
        `${label}: its figures are in merge format ${String(format)}, this version reads ${loadMergeFormat}: run every shard with the same voice-sandbox`,
      );
    const parsed = loadResultInput.safeParse(result);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const at = issue.path.length > 0 ? ` (${issue.path.join(".")}: ${issue.message})` : "";
      throw new LoadMergeError(
        `${label}: not the JSON result of a load run${at}: write each shard's with --reporter json --output <file>`,
      );
    }
    return { label, result: parsed.data };
  });
}

/** The inputs are the shards of one run, each once and none missing; returned in shard order. */
function checkShards(inputs: { label: string; result: LoadResultInput }[]) {
  const first = inputs[0]!;
  const f = first.result;
  for (const { label, result: r } of inputs.slice(1)) {
    if (r.mergeable.scenario !== f.mergeable.scenario)
      throw new LoadMergeError(
        `${label} is a run of another scenario than ${first.label} ("${r.name}" in ${r.file}, "${f.name}" in ${f.file}): the shards of one run play the same scenario file`,
      );
    const differs = [
      r.shard.totalCalls !== f.shard.totalCalls &&
        `--calls ${r.shard.totalCalls} where ${first.label} has ${f.shard.totalCalls}`,
      r.shard.count !== f.shard.count && `${r.shard.count} shards where ${first.label} has ${f.shard.count}`,
      r.mergeable.seed !== f.mergeable.seed &&
        `seed ${r.mergeable.seed} where ${first.label} has ${f.mergeable.seed}`,
      r.maxFailures !== f.maxFailures &&
        `--max-failures ${r.maxFailures} where ${first.label} has ${f.maxFailures}`,
    ].filter((d): d is string => typeof d === "string");
    if (differs.length > 0)
      throw new LoadMergeError(
        `${label} is a shard of another run than ${first.label} (${differs.join(", ")}): give every shard the same options`,
      );
  }
  const { count, totalCalls } = f.shard;
  const byIndex = new Map<number, string>();
  for (const { label, result: r } of inputs) {
    const block = blockCalls(totalCalls, r.shard.index, count);
    if (r.shard.index > count || block.firstCall !== r.shard.firstCall || block.lastCall !== r.shard.lastCall)
      throw new LoadMergeError(
        `${label}: shard ${r.shard.index}/${count} does not hold the calls that shard holds (${r.shard.firstCall}-${r.shard.lastCall})`,
      );
    const other = byIndex.get(r.shard.index);
    if (other !== undefined)
      throw new LoadMergeError(
        `${label} and ${other} are both shard ${r.shard.index}/${count}: their calls overlap; merge each shard's result once`,
      );
    byIndex.set(r.shard.index, label);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    const shown = missing.map((i) => {
      const b = blockCalls(totalCalls, i, count);
      return `${i}/${count} (calls ${b.firstCall}-${b.lastCall})`;
    });
    throw new LoadMergeError(
      `${missing.length === 1 ? "shard" : "shards"} ${shown.join(", ")} missing: merge the results of all ${count} shards`,
    );
  }
  return [...inputs].sort((a, b) => a.result.shard.index - b.result.shard.index);
}

/** The figures of the shards together, as one mergeable set. */
function mergedData(h: Hdr, results: readonly LoadResultInput[]): LoadMergeData {
  const f = results[0]!.mergeable;
  const agent = (f.agent ?? undefined) as AgentThresholds;
  return {
    format: loadMergeFormat,
    scenario: f.scenario,
    seed: f.seed,
    agent: agent ?? null,
    metrics: Object.fromEntries(
      metricKeys.map((k) => [
        k,
        mergedMergeable(
          h,
          results.map((r) => r.mergeable.metrics[k]),
        ),
      ]),
    ) as LoadMergeData["metrics"],
    gates: mergeGateStates(
      h,
      agent,
      results.map((r) => r.mergeable.gates),
    ),
  };
}

/**
 * The results of every shard of one load run (`--shard i/n`, each written by `loadJsonReport`) as the
 * whole run's result: calls, counts and figures added up (the percentiles from the added histograms), the
 * first failed calls in call order, the scenario's thresholds held again against the figures together, the
 * wall time the longest shard's. Throws LoadMergeError for inputs that are not the shards of one run.
 */
export async function mergeLoadResults(
  inputs: readonly (LoadMergeInput | LoadResult)[],
): Promise<LoadResult> {
  const labelled = inputs.map((input, i) =>
    typeof input === "object" && input !== null && "label" in input && "result" in input
      ? (input as LoadMergeInput)
      : { result: input, label: `result ${i + 1}` },
  );
  const shards = checkShards(readInputs(labelled));
  const results = shards.map((s) => s.result);
  const h = await loadHdr();
  let mergeable: LoadMergeData;
  try {
    mergeable = mergedData(h, results);
  } catch (error) {
    if (error instanceof LoadMergeError) throw error;
    throw new LoadMergeError(
      `a shard's figures do not read (${(error as Error).message}): write each shard's result anew`,
    );
  }
  const f = results[0]!;
  const positions = new Map(results.flatMap((r) => r.thresholds.map((t) => [t.path, t.where] as const)));
  const where: WhereOf = (path) => positions.get(path.join(".")) ?? null;
  const sum = (pick: (r: LoadResultInput) => number) => results.reduce((n, r) => n + pick(r), 0);
  const counts = emptyCounts();
  for (const key of Object.keys(counts) as (keyof LoadResult["counts"])[])
    counts[key] = sum((r) => r.counts[key]);
  const wallMs = Math.max(...results.map((r) => r.wallMs));
  const calls = f.shard.totalCalls;
  const merged: LoadResult = {
    name: f.name,
    file: f.file,
    passed: false,
    calls,
    concurrency: sum((r) => r.concurrency),
    passedCalls: sum((r) => r.passedCalls),
    failedCalls: sum((r) => r.failedCalls),
    erroredCalls: sum((r) => r.erroredCalls),
    maxFailures: f.maxFailures,
    failures: results
      .flatMap((r) => r.failures)
      .sort((a, b) => a.call - b.call)
      .slice(0, maxFailuresShown),
    counts,
    metrics: Object.fromEntries(
      metricKeys.map((k) => [k, mergedSpread(h, [mergeable.metrics[k]])]),
    ) as unknown as LoadMetrics,
    thresholds: gateResultsOf(h, mergeable.agent ?? undefined, mergeable.gates, where),
    shard: { index: 1, count: 1, firstCall: 1, lastCall: calls, totalCalls: calls },
    mergedShards: results.length,
    mergeable,
    wallMs,
    callsPerSecond: wallMs > 0 ? Math.round((calls / wallMs) * 1000 * 100) / 100 : 0,
  };
  merged.passed =
    merged.thresholds.every((t) => t.passed) &&
    merged.failedCalls + merged.erroredCalls <= merged.maxFailures;
  return merged;
}
