// The terminal report: one line per scenario as it finishes, each failure with expected, actual and the call's timeline.
import { agentLine } from "../agent-report.js";
import type { RunSummary, ScenarioFailure, ScenarioResult } from "../result.js";

const indent = (text: string, by: string) =>
  text
    .split("\n")
    .map((line) => (line === "" ? line : by + line))
    .join("\n");

const show = (value: unknown) => JSON.stringify(value) ?? "undefined";

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 3 : 1)}s`;

export function formatFailure(failure: ScenarioFailure, n: number): string {
  const lines = [
    `${n}) ${failure.where ? `${failure.where}  ` : ""}${failure.path}`,
    `   ${failure.message}`,
  ];
  if (failure.expected !== undefined) lines.push(`   expected: ${show(failure.expected)}`);
  if (failure.actual !== undefined) lines.push(`   actual:   ${show(failure.actual)}`);
  if (failure.diff) for (const line of failure.diff) lines.push(`   ${line}`);
  if (failure.call) {
    lines.push(`   timeline of ${failure.call.id} (${failure.call.sid}):`);
    for (const entry of failure.call.timeline) lines.push(`     ${entry}`);
  }
  return lines.join("\n");
}

/** One scenario: a status line, then its failures or error. */
export function formatResult(result: ScenarioResult): string {
  const mark = { passed: "✓", failed: "✗", skipped: "-", error: "!" }[result.status];
  const timing =
    result.status === "skipped"
      ? `skipped: ${result.skipReason}`
      : `${seconds(result.simulatedMs)} simulated, ${Math.round(result.wallMs)} ms wall`;
  const head = `${mark} ${result.name} (${result.file}) ${timing}`;
  const body: string[] = [];
  for (const [id, agent] of Object.entries(result.agents ?? {}))
    body.push(`  ${agentLine(id, agent.metrics)}`);
  if (result.error) body.push(indent(result.error, "  "));
  result.failures.forEach((failure, i) => {
    body.push(indent(formatFailure(failure, i + 1), "  "));
  });
  return [head, ...body].join("\n");
}

/** The run's last lines; `details: false` leaves out what the files that did not load said (printed already). */
export function formatSummary(summary: RunSummary, options: { details?: boolean } = {}): string {
  const lines: string[] = [];
  if (options.details !== false)
    for (const error of summary.loadErrors)
      lines.push(`! ${error.file} did not load:\n${indent(error.message, "  ")}`);
  const files = summary.results.length + summary.loadErrors.length;
  const parts = [
    `${summary.passed} passed`,
    `${summary.failed} failed`,
    ...(summary.errors > 0 ? [`${summary.errors} errored`] : []),
    `${summary.skipped} skipped`,
    ...(summary.loadErrors.length > 0 ? [`${summary.loadErrors.length} did not load`] : []),
  ];
  lines.push(
    `\n${parts.join(", ")} (${files} file${files === 1 ? "" : "s"}, ${Math.round(summary.wallMs)} ms wall)`,
  );
  return lines.join("\n");
}
