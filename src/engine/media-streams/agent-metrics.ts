// A call's conversation metrics from its turns: counts, response latency, barge-in stop time, talk-over, silences.
import type { TurnRecord } from "./conversation.js";

/** The smallest, middle, 95th- and 99th-percentile and largest of some values (nearest rank), and how many there were. */
export interface Spread {
  count: number;
  min: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

/** What a call's turns (or many calls' turns together) add up to; every duration in ms. */
export interface AgentMetrics {
  /**
   * The caller's turns, those the app owed an answer, those it answered, those it owed and did not answer
   * in time, and those it answered only after the sandbox stopped waiting.
   */
  turns: number;
  owed: number;
  answered: number;
  unanswered: number;
  late: number;
  /** The caller's end of turn to the agent's first audio, over the turns the agent spoke in. */
  responseMs: Spread;
  /** How long the agent's audio played, in all. */
  speakingMs: number;
  /** Turns in which the caller started over the agent, and how long the agent took to stop (those that did). */
  bargeIns: number;
  bargeInStopMs: Spread;
  /** How long both sounded at once, in all and in the worst turn. */
  talkOverMs: number;
  talkOverMaxMs: number;
  /** Stretches in which neither sounded: the longest, and each of them (in order). */
  longestSilenceMs: number;
  silencesMs: number[];
  /** Backchannels the caller said while the agent talked, and those the agent cut its audio for. */
  backchannels: number;
  backchannelStops: number;
}

/** The value at rank ceil(q * n) of the sorted values (nearest rank): always one of them. */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    min: sorted[0] ?? null,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? null,
  };
}

export function agentMetrics(turns: readonly TurnRecord[]): AgentMetrics {
  const silences = turns.flatMap((t) => t.silencesMs);
  const stops = turns.flatMap((t) => (t.bargeIn?.stopMs != null ? [t.bargeIn.stopMs] : []));
  return {
    turns: turns.length,
    owed: turns.filter((t) => t.owed).length,
    answered: turns.filter((t) => t.answered).length,
    unanswered: turns.filter((t) => t.owed && !t.answered).length,
    late: turns.filter((t) => t.late).length,
    responseMs: spreadOf(turns.flatMap((t) => (t.responseMs === null ? [] : [t.responseMs]))),
    speakingMs: turns.reduce((sum, t) => sum + t.speakingMs, 0),
    bargeIns: turns.filter((t) => t.bargeIn !== null).length,
    bargeInStopMs: spreadOf(stops),
    talkOverMs: turns.reduce((sum, t) => sum + t.talkOverMs, 0),
    talkOverMaxMs: turns.reduce((max, t) => Math.max(max, t.talkOverMs), 0),
    longestSilenceMs: silences.reduce((max, ms) => Math.max(max, ms), 0),
    silencesMs: silences,
    backchannels: turns.reduce((sum, t) => sum + (t.backchannels ?? 0), 0),
    backchannelStops: turns.reduce((sum, t) => sum + (t.backchannelStops ?? 0), 0),
  };
}

/** The turns an `agent.turn` timeline entry's detail holds (entries of other kinds are passed over). */
export function turnsOf(
  timeline: readonly { kind: string; detail: Record<string, unknown> }[],
): TurnRecord[] {
  return timeline.filter((e) => e.kind === "agent.turn").map((e) => e.detail as unknown as TurnRecord);
}
