// A load run's thresholds: the scenario's `agent` expectations, held against the whole run instead of one play.
import { type AgentMetrics, agentMetrics } from "../../engine/media-streams/agent-metrics.js";
import type { TurnRecord } from "../../engine/media-streams/conversation.js";
import type { LoadedScenario } from "../load.js";
import { type AgentExpectation, type Bound, withinBound } from "../schema/agent-fields.js";
import {
  createMetric,
  type Hdr,
  type MergeableSpread,
  type Metric,
  mergedMergeable,
  mergedSpread,
} from "./histograms.js";
import type { LoadSpread } from "./samples.js";

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
}

/** The figure furthest past a per-call bound, and which call (its number in the whole run) had it. */
export interface WorstCall {
  value: number;
  call: number;
}

/** A bound on a percentile of the run's response latencies or barge-in stop times. */
interface Percentile {
  path: string[];
  label: string;
  bound: Bound;
  q: "min" | "p50" | "p95" | "p99" | "max";
  of: "response" | "stop";
}

/** What one `agent` entry's thresholds have seen: plain JSON, so that shard results can be added up. */
export interface GateEntryState {
  plays: number;
  missingCall: number;
  unstopped: number;
  response: MergeableSpread;
  stop: MergeableSpread;
  /** Per bound on each call, in the order the entry's fields come: calls that missed it, and the worst. */
  perCall: { misses: number; worst: WorstCall | null }[];
}

/** Where a threshold is written (`file:line:column`), by its path in the scenario. */
export type WhereOf = (path: readonly string[]) => string | null;

/** The positions of a scenario loaded from YAML. */
export const whereIn =
  (loaded: LoadedScenario): WhereOf =>
  (path) => {
    const p = loaded.positionOf(path.map((k) => (/^\d+$/.test(k) ? Number(k) : k)));
    return p ? `${p.file}:${p.line}:${p.column}` : null;
  };

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

/** The worse of two misses: the one further past the bound, or on a tie the call placed first in the run. */
export function worseCall(bound: Bound, a: WorstCall | null, b: WorstCall | null): WorstCall | null {
  if (!a || !b) return a ?? b;
  const da = distance(bound, a.value);
  const db = distance(bound, b.value);
  if (da !== db) return da > db ? a : b;
  return a.call <= b.call ? a : b;
}

const perCallChecks = (entry: AgentExpectation): PerCall[] =>
  perCallFigures(entry).flatMap(([path, label, bound, unit, value]) =>
    bound ? [{ path, label, bound, unit, value }] : [],
  );

function percentileChecks(entry: AgentExpectation): Percentile[] {
  const out: Percentile[] = [];
  for (const [key, of, label] of [
    ["response_latency", "response", "response latency"],
    ["barge_in_stop", "stop", "barge-in stop"],
  ] as const) {
    for (const q of ["min", "p50", "p95", "p99", "max"] as const) {
      const bound = entry[key]?.[q];
      if (bound) out.push({ path: [key, q], label: `${label} ${q}`, bound, q, of });
    }
  }
  return out;
}

/** What an entry's verdicts are taken from: the counts, and the spreads of its latencies. */
interface EntryTally {
  plays: number;
  missingCall: number;
  unstopped: number;
  response: LoadSpread;
  stop: LoadSpread;
  perCall: GateEntryState["perCall"];
}

/** One `agent` entry's verdicts over what the run (or the shards together) saw. */
function entryResults(entry: AgentExpectation, base: string[], t: EntryTally, where: WhereOf): GateResult[] {
  const out: GateResult[] = [];
  const whose = entry.call !== undefined ? `call ${entry.call}'s agent` : "the agents";
  const gate = (path: string[], bound: Bound, actual: number | null, message: string | null) =>
    out.push({
      path: [...base, ...path].join("."),
      where: where([...base, ...path]),
      passed: message === null,
      expected: bound.text,
      actual,
      message: message ?? `${whose}: ${path.join(".")} within ${bound.text}`,
    });
  const { plays, unstopped } = t;
  const absent =
    t.missingCall > 0 ? `call ${entry.call} never started in ${t.missingCall} of ${plays} calls` : null;
  for (const p of percentileChecks(entry)) {
    const spread = p.of === "response" ? t.response : t.stop;
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
  perCallChecks(entry).forEach((c, i) => {
    const { misses, worst } = t.perCall[i] ?? { misses: 0, worst: null };
    const shown = (v: number) => (c.unit === "ms" ? `${v} ms` : String(v));
    const message =
      absent ??
      (worst
        ? `${whose}: ${c.label} missed ${c.bound.text} in ${misses} of ${plays} calls (worst: ${shown(worst.value)}, call ${worst.call})`
        : null);
    gate(c.path, c.bound, worst?.value ?? null, message);
  });
  return out;
}

/** One `agent` entry's thresholds, fed each play as it ends. */
function entryGate(h: Hdr, entry: AgentExpectation, base: string[], seed: number) {
  const perCall = perCallChecks(entry);
  const tallies: GateEntryState["perCall"] = perCall.map(() => ({ misses: 0, worst: null }));
  const samples: Record<"response" | "stop", Metric> = {
    response: createMetric(h, seed),
    stop: createMetric(h, seed + 1),
  };
  let unstopped = 0;
  let missingCall = 0;
  let plays = 0;
  return {
    observe(played: PlayedTurns, call: number) {
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
      perCall.forEach((c, i) => {
        const v = c.value(m);
        if (withinBound(c.bound, v)) return;
        const tally = tallies[i]!;
        tally.misses++;
        tally.worst = worseCall(c.bound, tally.worst, { value: v, call });
      });
    },
    state: (): GateEntryState => ({
      plays,
      missingCall,
      unstopped,
      response: samples.response.mergeable(),
      stop: samples.stop.mergeable(),
      perCall: tallies.map((t) => ({ ...t })),
    }),
    results: (where: WhereOf) =>
      entryResults(
        entry,
        base,
        {
          plays,
          missingCall,
          unstopped,
          response: samples.response.spread(),
          stop: samples.stop.spread(),
          perCall: tallies,
        },
        where,
      ),
  };
}

export type AgentThresholds = AgentExpectation | AgentExpectation[] | undefined;

const entriesOf = (agent: AgentThresholds) =>
  agent === undefined ? [] : Array.isArray(agent) ? agent : [agent];
const baseOf = (agent: AgentThresholds, i: number) =>
  Array.isArray(agent) ? ["expect", "agent", String(i)] : ["expect", "agent"];

export type LoadGates = ReturnType<typeof createLoadGates>;

/** The scenario's `expect.agent` entries as the run's thresholds. */
export function createLoadGates(agent: AgentThresholds, h: Hdr) {
  const gates = entriesOf(agent).map((entry, i) => entryGate(h, entry, baseOf(agent, i), i * 2 + 1));
  let plays = 0;
  return {
    count: gates.length,
    /** One play's turns; `call` is its number in the whole run (default: the plays seen so far). */
    observe: (played: PlayedTurns, call?: number) => {
      plays++;
      for (const g of gates) g.observe(played, call ?? plays);
    },
    state: () => gates.map((g) => g.state()),
    results: (where: LoadedScenario | WhereOf) => {
      const at = typeof where === "function" ? where : whereIn(where);
      return gates.flatMap((g) => g.results(at));
    },
  };
}

/**
 * The shards' states of each entry as one: counts added, the worst call the worst of the shards' (the first
 * placed on a tie), the histograms added.
 */
export function mergeGateStates(
  h: Hdr,
  agent: AgentThresholds,
  shards: readonly (readonly GateEntryState[])[],
): GateEntryState[] {
  return entriesOf(agent).map((entry, i) => {
    const states = shards.map((s) => s[i]!);
    const sum = (key: "plays" | "missingCall" | "unstopped") => states.reduce((n, s) => n + s[key], 0);
    return {
      plays: sum("plays"),
      missingCall: sum("missingCall"),
      unstopped: sum("unstopped"),
      response: mergedMergeable(
        h,
        states.map((s) => s.response),
      ),
      stop: mergedMergeable(
        h,
        states.map((s) => s.stop),
      ),
      perCall: perCallChecks(entry).map((c, k) => ({
        misses: states.reduce((n, s) => n + (s.perCall[k]?.misses ?? 0), 0),
        worst: states.reduce<WorstCall | null>(
          (w, s) => worseCall(c.bound, w, s.perCall[k]?.worst ?? null),
          null,
        ),
      })),
    };
  });
}

/** The thresholds held against states (merged ones): the percentiles from their histograms. */
export function gateResultsOf(
  h: Hdr,
  agent: AgentThresholds,
  states: readonly GateEntryState[],
  where: WhereOf,
): GateResult[] {
  return entriesOf(agent).flatMap((entry, i) => {
    const state = states[i]!;
    const tally: EntryTally = {
      ...state,
      response: mergedSpread(h, [state.response]),
      stop: mergedSpread(h, [state.stop]),
    };
    return entryResults(entry, baseOf(agent, i), tally, where);
  });
}
