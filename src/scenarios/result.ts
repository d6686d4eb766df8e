// What playing a scenario gives back: a verdict, located failures with their evidence, and a trace.
import type { AgentMetrics } from "../engine/media-streams/agent-metrics.js";
import type { TurnRecord } from "../engine/media-streams/conversation.js";

export type ScenarioStatus = "passed" | "failed" | "skipped" | "error";

export interface ScenarioFailure {
  /** `file:line:col` of the expectation or step, when the scenario came from a file. */
  where: string | null;
  /** Path of the expectation in the scenario, e.g. `expect.calls.c1.status`. */
  path: string;
  /** One line saying what did not hold. */
  message: string;
  expected?: unknown;
  actual?: unknown;
  /** The call the failure is about, with its timeline (relative times) for context. */
  call?: { id: string; sid: string; timeline: string[] };
  /** A unified diff (a timeline snapshot that changed): `-` saved, `+` this run. */
  diff?: string[];
}

export interface TraceEntry {
  /** Scenario time, e.g. `+12.000s`. */
  at: string;
  kind: string;
  method: string;
  url: string;
  status: number | null;
  params: Record<string, string>;
}

export interface ScenarioResult {
  name: string;
  file: string;
  status: ScenarioStatus;
  /** Why it was skipped (the file's `skip`, or a missing --target). */
  skipReason?: string;
  /** A step that could not run, or an internal error: the scenario did not finish. */
  error?: string;
  failures: ScenarioFailure[];
  seed: number | string;
  /** Sids of the scenario's calls, by id. */
  calls: Record<string, string>;
  /** Scenario time played, in ms. */
  simulatedMs: number;
  /** Wall-clock time the run took, in ms (with `thinkMs`, what differs between identical runs). */
  wallMs: number;
  /**
   * Each call (by id) whose `<Connect>` agent had turns: the turns (times in ms from the scenario's start)
   * and what they add up to, in sandbox time: the same run after run.
   */
  agents?: Record<string, { metrics: AgentMetrics; turns: TurnRecord[] }>;
  /**
   * The real ms the sandbox waited for each agent's answer (the app's think time), per call and turn
   * (null: none was owed, or none came): it differs run to run, as `wallMs` does.
   */
  thinkMs?: Record<string, (number | null)[]>;
  /** Every request the sandbox made to a customer URL (first attempts), in order. */
  trace: TraceEntry[];
  /** With `snapshot: true`: the full timeline of every call and message, as the snapshot keeps it. */
  timeline?: string;
  /** With `snapshot: true` and a file: what happened to its snapshot (written, matched, updated, differs). */
  snapshot?: { status: "written" | "matched" | "updated" | "differs"; file: string };
}

export interface RunSummary {
  results: ScenarioResult[];
  /** Files that did not load, with their located errors. */
  loadErrors: { file: string; message: string }[];
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
  wallMs: number;
}

/** Scenario time as reports show it: +1m02.500s. */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? "-" : "+";
  const abs = Math.abs(ms);
  const minutes = Math.floor(abs / 60_000);
  const seconds = ((abs % 60_000) / 1000).toFixed(3).padStart(6, "0");
  return minutes > 0 ? `${sign}${minutes}m${seconds}s` : `${sign}${(abs / 1000).toFixed(3)}s`;
}
