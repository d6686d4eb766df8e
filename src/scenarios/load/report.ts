// A load run's result as the terminal shows it (a table of percentiles), as JSON and as JUnit XML for CI.
import type { LoadMetrics, LoadResult } from "./run.js";
import type { LoadSpread } from "./samples.js";

const rows: [keyof LoadMetrics, string, "ms" | "count"][] = [
  ["responseMs", "response latency (per turn)", "ms"],
  ["bargeInStopMs", "barge-in stop (per barge-in)", "ms"],
  ["talkOverMs", "talk-over (per call)", "ms"],
  ["longestSilenceMs", "longest silence (per call)", "ms"],
  ["silenceMs", "silences (each)", "ms"],
  ["turns", "turns (per call)", "count"],
];

const columns = ["count", "p50", "p95", "p99", "min", "max"] as const;

function cell(spread: LoadSpread, column: (typeof columns)[number], unit: "ms" | "count"): string {
  const value = spread[column];
  if (value === null) return "-";
  return column === "count" || unit === "count" ? String(value) : `${value} ms`;
}

/** The run's figures as a table: a row per metric, its count and p50/p95/p99/min/max. */
export function formatLoadTable(result: LoadResult): string {
  const header = ["metric", ...columns];
  const body = rows.map(([key, label, unit]) => [
    label,
    ...columns.map((c) => cell(result.metrics[key], c, unit)),
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ");
  return [line(header), ...body.map(line)].join("\n");
}

/** Which part of a sharded run the result is, or how many shards it was merged from; nothing for a whole run. */
function partOf(result: LoadResult): string {
  const shard = result.shard;
  const merged = result.mergedShards;
  if (merged !== undefined) return ` (${merged} shard${merged === 1 ? "" : "s"} merged)`;
  if (!shard || shard.count === 1) return "";
  return ` (shard ${shard.index}/${shard.count}: calls ${shard.firstCall}-${shard.lastCall} of ${shard.totalCalls})`;
}

/** The whole report for the terminal: what ran, the table, the counts, the thresholds, the failures, the verdict. */
export function formatLoadResult(result: LoadResult): string {
  const c = result.counts;
  const out = [
    `load ${result.name} (${result.file}): ${result.calls} calls${partOf(result)}, ${result.concurrency} at once, ${(result.wallMs / 1000).toFixed(1)} s (${result.callsPerSecond} calls/s)`,
    "",
    formatLoadTable(result),
    "",
    `calls: ${result.passedCalls} passed, ${result.failedCalls} failed, ${result.erroredCalls} did not finish`,
    `turns: ${c.turns} (${c.answered} answered, ${c.unanswered} unanswered, ${c.late} late), barge-ins: ${c.bargeIns}`,
    `frames: ${c.lateFrames} late, ${c.droppedFrames} dropped`,
  ];
  if (result.thresholds.length > 0) {
    out.push("", "thresholds:");
    for (const t of result.thresholds)
      out.push(
        t.passed
          ? `  ok    ${t.path} ${t.expected}${t.actual === null ? "" : ` (${t.actual})`}`
          : `  FAIL  ${t.where ?? t.path}  ${t.path}\n        ${t.message}`,
      );
  }
  const failed = result.failedCalls + result.erroredCalls;
  if (failed > 0) {
    out.push("", `failed calls (${failed}, at most ${result.maxFailures} allowed):`);
    for (const f of result.failures) out.push(`  call ${f.call}${f.sid ? ` (${f.sid})` : ""}: ${f.message}`);
    if (failed > result.failures.length) out.push(`  ... and ${failed - result.failures.length} more`);
  }
  out.push("", result.passed ? "PASSED" : "FAILED");
  return out.join("\n");
}

/** The result as JSON, for CI. */
export function loadJsonReport(result: LoadResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

const xml = (text: string) =>
  text.replace(/[<>&"']/g, (ch) => `&${{ "<": "lt", ">": "gt", "&": "amp", '"': "quot", "'": "apos" }[ch]};`);

/** The result as JUnit XML: a test case per threshold, and one for the calls' own expectations. */
export function loadJunitReport(result: LoadResult): string {
  const failed = result.failedCalls + result.erroredCalls;
  const cases = result.thresholds.map((t) => {
    const name = `${t.path} ${t.expected}`;
    return t.passed
      ? `    <testcase classname="load" name="${xml(name)}"/>`
      : `    <testcase classname="load" name="${xml(name)}">\n      <failure message="${xml(t.message)}">${xml(`${t.where ?? t.path}\n${t.message}`)}</failure>\n    </testcase>`;
  });
  const callsName = `calls: ${result.calls}, at most ${result.maxFailures} failed`;
  const callsFailure =
    failed > result.maxFailures
      ? `\n      <failure message="${xml(`${failed} of ${result.calls} calls failed`)}">${xml(result.failures.map((f) => `call ${f.call}: ${f.message}`).join("\n"))}</failure>\n    `
      : "";
  cases.push(
    callsFailure
      ? `    <testcase classname="load" name="${xml(callsName)}">${callsFailure}</testcase>`
      : `    <testcase classname="load" name="${xml(callsName)}"/>`,
  );
  const failures = result.thresholds.filter((t) => !t.passed).length + (callsFailure ? 1 : 0);
  const out = `<testsuite name="${xml(`load: ${result.name}`)}" tests="${cases.length}" failures="${failures}" time="${(result.wallMs / 1000).toFixed(3)}">\n    <system-out>${xml(formatLoadTable(result))}</system-out>\n${cases.join("\n")}\n  </testsuite>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="voice-sandbox load" tests="${cases.length}" failures="${failures}">\n  ${out}\n</testsuites>\n`;
}
