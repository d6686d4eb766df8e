// JUnit XML for CI: one testcase per scenario; failures, errors and skips as JUnit readers expect them.

import { agentLine } from "../agent-report.js";
import type { RunSummary, ScenarioResult } from "../result.js";
import { formatFailure } from "./pretty.js";

const xmlText = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // Characters XML 1.0 does not allow at all.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

const secs = (ms: number) => (ms / 1000).toFixed(3);

function testcase(result: ScenarioResult): string {
  const open = `    <testcase name="${xmlText(result.name)}" classname="${xmlText(result.file)}" time="${secs(result.wallMs)}">`;
  const inner: string[] = [];
  if (result.status === "skipped")
    inner.push(`      <skipped message="${xmlText(result.skipReason ?? "")}"/>`);
  if (result.status === "error")
    inner.push(
      `      <error message="${xmlText((result.error ?? "").split("\n")[0]!)}">${xmlText(result.error ?? "")}</error>`,
    );
  if (result.failures.length > 0) {
    const text = result.failures.map((f, i) => formatFailure(f, i + 1)).join("\n\n");
    inner.push(
      `      <failure message="${xmlText(result.failures[0]!.message)}" type="expectation">${xmlText(text)}</failure>`,
    );
  }
  const agents = Object.entries(result.agents ?? {}).map(([id, a]) => `\n${agentLine(id, a.metrics)}`);
  inner.push(
    `      <system-out>${xmlText(`seed ${result.seed}; ${result.simulatedMs} ms simulated; calls ${JSON.stringify(result.calls)}${agents.join("")}`)}</system-out>`,
  );
  return [open, ...inner, "    </testcase>"].join("\n");
}

export function junitReport(summary: RunSummary): string {
  const failures = summary.results.filter((r) => r.status === "failed").length;
  const errors = summary.results.filter((r) => r.status === "error").length + summary.loadErrors.length;
  const skipped = summary.skipped;
  const tests = summary.results.length + summary.loadErrors.length;
  const loadCases = summary.loadErrors.map(
    (e) =>
      `    <testcase name="${xmlText(e.file)}" classname="${xmlText(e.file)}" time="0.000">\n      <error message="the scenario file does not load" type="load">${xmlText(e.message)}</error>\n    </testcase>`,
  );
  const attrs = `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${secs(summary.wallMs)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="voice-sandbox scenarios" ${attrs}>`,
    `  <testsuite name="scenarios" ${attrs}>`,
    ...summary.results.map(testcase),
    ...loadCases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
