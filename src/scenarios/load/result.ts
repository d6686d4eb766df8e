// A load run's result: its figures, counts, thresholds, and what a merge of shard results needs.
import type { AgentThresholds, GateEntryState, GateResult } from "./gates.js";
import type { MergeableSpread } from "./histograms.js";
import type { LoadSpread } from "./samples.js";
import type { LoadShardInfo } from "./shard.js";

/** The version of `mergeable` a result is written in; a merge refuses any other. */
export const loadMergeFormat = 1;

/** A result's figures in the form results of the same run add up in (plain JSON). */
export interface LoadMergeData {
  format: typeof loadMergeFormat;
  /** SHA-256 of the scenario as it loaded: shards of one run played the same scenario. */
  scenario: string;
  /** The run's first seed (call n plays with seed + n - 1), the same in every shard. */
  seed: number | string;
  /** The scenario's `expect.agent` thresholds, held again against the merged figures. */
  agent: AgentThresholds | null;
  metrics: Record<keyof LoadMetrics, MergeableSpread>;
  /** One state per `expect.agent` entry. */
  gates: GateEntryState[];
}

export interface LoadProgress {
  total: number;
  done: number;
  running: number;
  failed: number;
  elapsedMs: number;
}

/** The figures of a load run, each a spread over its values (turns, calls or barge-ins). */
export interface LoadMetrics {
  /** Per turn answered: the end of the caller's turn to the agent's first audio or words. */
  responseMs: LoadSpread;
  /** Per barge-in the agent stopped for: the caller starting over it to its audio stopping. */
  bargeInStopMs: LoadSpread;
  /** Per call: how long caller and agent sounded at once. */
  talkOverMs: LoadSpread;
  /** Per call: the longest silence. */
  longestSilenceMs: LoadSpread;
  /** Per silence: how long neither sounded. */
  silenceMs: LoadSpread;
  /** Per call: the caller's turns. */
  turns: LoadSpread;
}

export interface LoadResult {
  name: string;
  file: string;
  passed: boolean;
  /** Calls placed: the run's, or a shard's block of them (a merged result: the whole run's). */
  calls: number;
  /** Calls at once (a merged result: the shards' together). */
  concurrency: number;
  /** Calls whose play passed, failed (another expectation did not hold) or did not finish (error). */
  passedCalls: number;
  failedCalls: number;
  erroredCalls: number;
  maxFailures: number;
  /** The first failed calls to end (at most 20), in call order: its number in the whole run, its sid, and why. */
  failures: { call: number; sid: string | null; message: string }[];
  counts: {
    turns: number;
    answered: number;
    unanswered: number;
    late: number;
    bargeIns: number;
    /**
     * Media frames that left more than a frame's time late (each track's frame on its own), and frames dropped for
     * an app too slow to read (a stream's 20 ms at a time, its tracks together, as `chunks` counts them).
     */
    lateFrames: number;
    droppedFrames: number;
  };
  metrics: LoadMetrics;
  thresholds: GateResult[];
  /** Which calls of the whole run this result holds: all of them, or one shard's block (`--shard`). */
  shard: LoadShardInfo;
  /** How many shard results a merged result was made of (only in a merged result). */
  mergedShards?: number;
  /** What `mergeLoadResults` needs to add this result to others of the same run (in the JSON report too). */
  mergeable: LoadMergeData;
  wallMs: number;
  /** Calls ended per second of the run. */
  callsPerSecond: number;
}
