// Checks the `agent` expectation: a <Connect> agent's conversation metrics against the bounds the file gives.
import { type AgentMetrics, agentMetrics, type Spread } from "../../engine/media-streams/agent-metrics.js";
import type { TurnRecord } from "../../engine/media-streams/conversation.js";
import type { ScenarioFailure } from "../result.js";
import { type AgentExpectation, type Bound, withinBound } from "../schema/agent-fields.js";
import { type CheckContext, callContext, dotted, type Path } from "./context.js";

const ms = (value: number) => `${value} ms`;

/** What the metric was in each turn that had it, for a failure's message. */
function perTurn(turns: readonly TurnRecord[], value: (t: TurnRecord) => number | null): string {
  const shown = turns.flatMap((t) => {
    const v = value(t);
    return v === null ? [] : [`${t.n}: ${ms(v)}`];
  });
  return shown.length > 0 ? ` (per turn: ${shown.join(", ")})` : "";
}

interface Checked {
  path: Path;
  label: string;
  bound: Bound;
  actual: number | null;
  unit: "ms" | "count";
  /** Said when the value does not exist (no turn had one). */
  none?: string;
  detail?: string;
}

/** Each bound the entry gives, with the actual value it is held against. */
function boundsOf(entry: AgentExpectation, m: AgentMetrics, turns: readonly TurnRecord[]): Checked[] {
  const out: Checked[] = [];
  const count = (key: keyof AgentExpectation, label: string, actual: number) => {
    const bound = entry[key] as Bound | undefined;
    if (bound) out.push({ path: [key], label, bound, actual, unit: "count" });
  };
  count("turns", "turns", m.turns);
  count("answered", "answered turns", m.answered);
  count("unanswered", "unanswered turns", m.unanswered);
  count("late", "turns answered late", m.late);
  count("barge_ins", "barge-ins", m.bargeIns);
  count("backchannels", "backchannels", m.backchannels);
  count("backchannel_stops", "backchannels the agent stopped for", m.backchannelStops);
  const spread = (
    key: "response_latency" | "barge_in_stop",
    label: string,
    actual: Spread,
    value: (t: TurnRecord) => number | null,
    none: string,
  ) => {
    const bounds = entry[key];
    if (!bounds) return;
    for (const q of ["min", "p50", "p95", "p99", "max"] as const) {
      const bound = bounds[q];
      if (!bound) continue;
      out.push({
        path: [key, q],
        label: `${label} ${q}`,
        bound,
        actual: actual[q],
        unit: "ms",
        none,
        detail: perTurn(turns, value),
      });
    }
  };
  spread(
    "response_latency",
    "response latency",
    m.responseMs,
    (t) => t.responseMs,
    "the agent answered no turn with audio or words",
  );
  spread(
    "barge_in_stop",
    "barge-in stop",
    m.bargeInStopMs,
    (t) => t.bargeIn?.stopMs ?? null,
    "the caller never started over the agent",
  );
  if (entry.talk_over?.total)
    out.push({
      path: ["talk_over", "total"],
      label: "talk-over",
      bound: entry.talk_over.total,
      actual: m.talkOverMs,
      unit: "ms",
      detail: perTurn(turns, (t) => t.talkOverMs || null),
    });
  if (entry.talk_over?.max)
    out.push({
      path: ["talk_over", "max"],
      label: "talk-over in the worst turn",
      bound: entry.talk_over.max,
      actual: m.talkOverMaxMs,
      unit: "ms",
      detail: perTurn(turns, (t) => t.talkOverMs || null),
    });
  if (entry.speaking)
    out.push({
      path: ["speaking"],
      label: "agent speaking time",
      bound: entry.speaking,
      actual: m.speakingMs,
      unit: "ms",
    });
  if (entry.longest_silence)
    out.push({
      path: ["longest_silence"],
      label: "longest silence",
      bound: entry.longest_silence,
      actual: m.longestSilenceMs,
      unit: "ms",
    });
  if (entry.silences) {
    const over = m.silencesMs.filter((s) => s > entry.silences!.longer_than);
    out.push({
      path: ["silences", "count"],
      label: `silences longer than ${ms(entry.silences.longer_than)}`,
      bound: entry.silences.count,
      actual: over.length,
      unit: "count",
      ...(over.length > 0 ? { detail: ` (${over.map(ms).join(", ")})` } : {}),
    });
  }
  return out;
}

/** Barge-ins the agent never stopped for: they fail every bound on the stop time but `min`. */
function unstopped(turns: readonly TurnRecord[]): number[] {
  return turns.filter((t) => t.bargeIn && t.bargeIn.stopMs === null).map((t) => t.n);
}

function checkEntry(ctx: CheckContext, entry: AgentExpectation, path: Path): ScenarioFailure[] {
  const { observer } = ctx;
  const sid = entry.call === undefined ? undefined : observer.ids.get(entry.call);
  if (entry.call !== undefined && !sid)
    return [
      {
        where: ctx.where([...path, "call"]),
        path: dotted([...path, "call"]),
        message: `call ${entry.call} never started`,
      },
    ];
  const sids = sid ? [sid] : observer.agentCalls();
  const turns = sids.flatMap((s) => observer.agentTurns(s));
  const metrics = agentMetrics(turns);
  const whose =
    entry.call !== undefined
      ? `call ${entry.call}'s agent`
      : `the agents (${sids.length} call${sids.length === 1 ? "" : "s"})`;
  const call = sid && entry.call !== undefined ? callContext(ctx, entry.call, sid) : undefined;
  const failures: ScenarioFailure[] = [];
  const stuck = unstopped(turns);
  for (const c of boundsOf(entry, metrics, turns)) {
    const at = [...path, ...c.path];
    const shown = (v: number) => (c.unit === "ms" ? ms(v) : String(v));
    let message: string | null = null;
    if (c.path[0] === "barge_in_stop" && c.path[1] !== "min" && stuck.length > 0)
      message = `${whose}: ${c.label}: the agent did not stop for the caller in turn ${stuck.join(", ")} (its audio played on), expected ${c.bound.text}`;
    else if (c.actual === null)
      message = `${whose}: ${c.label}: ${c.none ?? "no value"}, expected ${c.bound.text}`;
    else if (!withinBound(c.bound, c.actual))
      message = `${whose}: ${c.label} is ${shown(c.actual)}, expected ${c.bound.text}${c.detail ?? ""}`;
    if (message)
      failures.push({
        where: ctx.where(at),
        path: dotted(at),
        message,
        expected: c.bound.text,
        actual: c.actual,
        ...(call ? { call } : {}),
      });
  }
  return failures;
}

export function checkAgent(
  ctx: CheckContext,
  agent: AgentExpectation | AgentExpectation[],
  base: Path,
): ScenarioFailure[] {
  const path = [...base, "agent"];
  if (!Array.isArray(agent)) return checkEntry(ctx, agent, path);
  return agent.flatMap((entry, i) => checkEntry(ctx, entry, [...path, i]));
}
