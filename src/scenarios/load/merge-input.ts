// What a merge reads of a load result (its JSON report): the fields it adds up, checked before any is used.
import { z } from "zod";
import type { GateEntryState } from "./gates.js";

const count = z.number().int().min(0);
const figure = z.number().nullable();

const mergeableSpread = z.object({ count, min: figure, max: figure, histogram: z.string() });

const spread = z.object({
  count,
  min: figure,
  p50: figure,
  p95: figure,
  p99: figure,
  max: figure,
  sampled: count,
});

const metricKeys = [
  "responseMs",
  "bargeInStopMs",
  "talkOverMs",
  "longestSilenceMs",
  "silenceMs",
  "turns",
] as const;

const worst = z.object({ value: z.number(), call: z.number().int().min(1) }).nullable();

const gateState = z.object({
  plays: count,
  missingCall: count,
  unstopped: count,
  response: mergeableSpread,
  stop: mergeableSpread,
  perCall: z.array(z.object({ misses: count, worst })),
}) satisfies z.ZodType<GateEntryState>;

/** A load result as `loadJsonReport` writes it; the fields a merge does not read are not checked. */
export const loadResultInput = z.object({
  name: z.string(),
  file: z.string(),
  calls: z.number().int().min(1),
  concurrency: z.number().int().min(1),
  passedCalls: count,
  failedCalls: count,
  erroredCalls: count,
  maxFailures: count,
  failures: z.array(
    z.object({ call: z.number().int().min(1), sid: z.string().nullable(), message: z.string() }),
  ),
  counts: z.object({
    turns: count,
    answered: count,
    unanswered: count,
    late: count,
    bargeIns: count,
    lateFrames: count,
    droppedFrames: count,
  }),
  metrics: z.object(
    Object.fromEntries(metricKeys.map((k) => [k, spread])) as Record<
      (typeof metricKeys)[number],
      typeof spread
    >,
  ),
  thresholds: z.array(z.object({ path: z.string(), where: z.string().nullable() }).loose()),
  shard: z.object({
    index: z.number().int().min(1),
    count: z.number().int().min(1),
    firstCall: z.number().int().min(1),
    lastCall: z.number().int().min(1),
    totalCalls: z.number().int().min(1),
  }),
  mergeable: z.object({
    format: z.number(),
    scenario: z.string(),
    seed: z.union([z.number(), z.string()]),
    agent: z.unknown(),
    metrics: z.object(
      Object.fromEntries(metricKeys.map((k) => [k, mergeableSpread])) as Record<
        (typeof metricKeys)[number],
        typeof mergeableSpread
      >,
    ),
    gates: z.array(gateState),
  }),
  wallMs: z.number().min(0),
});

export type LoadResultInput = z.output<typeof loadResultInput>;
export { metricKeys };
