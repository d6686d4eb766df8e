// The JSON report: the whole run summary, every scenario's result with failures and trace.
import type { RunSummary } from "../result.js";

export function jsonReport(summary: RunSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}
