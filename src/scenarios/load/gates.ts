// A load run's thresholds: the scenario's `agent` expectations, held against the whole run instead of one play.
import { type AgentMetrics, agentMetrics } from "../../engine/media-streams/agent-metrics.js";
import type { TurnRecord } from "../../engine/media-streams/conversation.js";
import type { LoadedScenario } from "../load.js";
import { type AgentExpectation, type Bound, withinBound } from "../schema/agent-fields.js";
import { createSampler, type LoadSpread, type Sampler } from "./samples.js";

/** One threshold's verdict over the run. */
export interface GateResult {
  /** Where it is written in the scenario, e.g. `expect.agent.response_latency.p95`. */
  path: string;
  where: string | null;
  passed: boolean;
  /** The bound as written, e.g. `< 800ms`. */
  expected: string;
  /** The run's value (a percentile, or the worst call's value); null when there was none. */
  actual: number | null;
  message: string;
}

/** The turns of each call of one play of the scenario, by the scenario's call id. */
export type PlayedTurns = Readonly<Record<string, readonly TurnRecord[]>>;

/** A bound on one call's figure: checked on every call of the run. */
interface PerCall {
  path: string[];
  label: string;
  bound: Bound;
  unit: "ms" | "count";
  value: (m: AgentMetrics) => number;
  misses: number;
  /** The figure furthest past the bound, and in which play (1-based). */
  worst: { value: number; play: number } | null;
}

/** A bound on a percentile of the run's response latencies or barge-in stop times. */
interface Percentile {
  path: string[];
  label: string;
  bound: Bound;
  q: "min" | "p50" | "p95" | "p99" | "max";
  of: "response" | "stop";
}

const perCallFigures = (
  e: AgentExpectation,
): [string[], string, Bound | undefined, "ms" | "count", (m: AgentMetrics) => number][] => [
  [["turns"], "turns", e.turns, "count", (m) => m.turns],
  [["answered"], "answered turns", e.answered, "count", (m) => m.answered],
  [["unanswered"], "unanswered turns", e.unanswered, "count", (m) => m.unanswered],
  [["late"], "turns answered late", e.late, "count", (m) => m.late],
  [["barge_ins"], "barge-ins", e.barge_ins, "count", (m) => m.bargeIns],
  [["talk_over", "total"], "talk-over", e.talk_over?.total, "ms", (m) => m.talkOverMs],
  [["talk_over", "max"], "talk-over in the worst turn", e.talk_over?.max, "ms", (m) => m.talkOverMaxMs],
  [["speaking"], "agent speaking time", e.speaking, "ms", (m) => m.speakingMs],
  [["longest_silence"], "longest silence", e.longest_silence, "ms", (m) => m.longestSilenceMs],
  [
    ["silences", "count"],
    `silences longer than ${e.silences?.longer_than ?? 0} ms`,
    e.silences?.count,
    "count",
    (m) => m.silencesMs.filter((s) => s > (e.silences?.longer_than ?? 0)).length,
  ],
];

/** How far a value misses its bound (to keep the worst call's). */
const distance = (bound: Bound, value: number) => Math.abs(value - bound.value);

/** One `agent` entry's thresholds, fed each play as it ends. */
function entryGate(entry: AgentExpectation, base: string[], seed: number) {
  const perCall: PerCall[] = perCallFigures(entry).flatMap(([path, label, bound, unit, value]) =>
    bound ? [{ path, label, bound, unit, value, misses: 0, worst: null }] : [],
  );
  const percentiles: Percentile[] = [];
  for (const [key, of, label] of [
    ["response_latency", "response", "response latency"],
    ["barge_in_stop", "stop", "barge-in stop"],
  ] as const) {
    for (const q of ["min", "p50", "p95", "p99", "max"] as const) {
      const bound = entry[key]?.[q];
      if (bound) percentiles.push({ path: [key, q], label: `${label} ${q}`, bound, q, of });
    }
  }
  const samples: Record<"response" | "stop", Sampler> = {
    response: createSampler(undefined, seed),
    stop: createSampler(undefined, seed + 1),
  };
  let unstopped = 0;
  let missingCall = 0;
  let plays = 0;
  return {
    observe(played: PlayedTurns) {
      plays++;
      if (entry.call !== undefined && !(entry.call in played)) {
        missingCall++;
        return;
      }
      const turns = entry.call !== undefined ? played[entry.call]! : Object.values(played).flat();
      for (const t of turns) {
        if (t.responseMs !== null) samples.response.add(t.responseMs);
        if (t.bargeIn?.stopMs != null) samples.stop.add(t.bargeIn.stopMs);
        else if (t.bargeIn) unstopped++;
      }
      const m = agentMetrics(turns);
      for (const c of perCall) {
        const v = c.value(m);
        if (withinBound(c.bound, v)) continue;
        c.misses++;
        if (!c.worst || distance(c.bound, v) > distance(c.bound, c.worst.value))
          c.worst = { value: v, play: plays };
      }
    },
    results(loaded: LoadedScenario): GateResult[] {
      const where = (path: string[]) => {
        const p = loaded.positionOf([...base, ...path].map((k) => (/^\d+$/.test(k) ? Number(k) : k)));
        return p ? `${p.file}:${p.line}:${p.column}` : null;
      };
      const out: GateResult[] = [];
      const whose = entry.call !== undefined ? `call ${entry.call}'s agent` : "the agents";
      const gate = (path: string[], bound: Bound, actual: number | null, message: string | null) =>
        out.push({
          path: [...base, ...path].join("."),
          where: where(path),
          passed: message === null,
          expected: bound.text,
          actual,
          message: message ?? `${whose}: ${path.join(".")} within ${bound.text}`,
        });
      const absent =
        missingCall > 0 ? `call ${entry.call} never started in ${missingCall} of ${plays} calls` : null;
      for (const p of percentiles) {
        const spread: LoadSpread = samples[p.of].spread();
        const actual = spread[p.q];
        let message: string | null = absent;
        if (message === null && p.of === "stop" && p.q !== "min" && unstopped > 0)
          message = `${whose}: ${p.label}: the agent did not stop for the caller in ${unstopped} barge-in${unstopped === 1 ? "" : "s"}, expected ${p.bound.text}`;
        else if (message === null && actual === null)
          message = `${whose}: ${p.label}: no value in the whole run, expected ${p.bound.text}`;
        else if (message === null && actual !== null && !withinBound(p.bound, actual))
          message = `${whose}: ${p.label} over ${spread.count} values of ${plays} calls is ${actual} ms, expected ${p.bound.text}`;
        gate(p.path, p.bound, actual, message);
      }
      for (const c of perCall) {
        const shown = (v: number) => (c.unit === "ms" ? `${v} ms` : String(v));
        const message =
          absent ??
          (c.worst
            ? `${whose}: ${c.label} missed ${c.bound.text} in ${c.misses} of ${plays} calls (worst: ${shown(c.worst.value)}, call ${c.worst.play})`
            : null);
        gate(c.path, c.bound, c.worst?.value ?? null, message);
      }
      return out;
    },
  };
}

export type LoadGates = ReturnType<typeof createLoadGates>;

/** The scenario's `expect.agent` entries as the run's thresholds. */
export function createLoadGates(agent: AgentExpectation | AgentExpectation[] | undefined) {
  const entries = agent === undefined ? [] : Array.isArray(agent) ? agent : [agent];
  const gates = entries.map((entry, i) =>
    entryGate(entry, Array.isArray(agent) ? ["expect", "agent", String(i)] : ["expect", "agent"], i * 2 + 1),
  );
  return {
    count: gates.length,
    observe: (played: PlayedTurns) => {
      for (const g of gates) g.observe(played);
    },
    results: (loaded: LoadedScenario) => gates.flatMap((g) => g.results(loaded)),
  };
}
