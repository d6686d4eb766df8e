// A load run's figures: a bounded sample of each metric's values (seeded reservoir past the bound) and its percentiles.
import { createIdGenerator } from "../../domain/ids.js";
import { percentile, type Spread } from "../../engine/media-streams/agent-metrics.js";

/** Values kept per metric; past this, a seeded reservoir keeps a uniform sample of them (memory stays flat). */
export const maxSamplesPerMetric = 50_000;

/** A metric's spread over the run: how many values there were, the smallest, p50, p95, p99 and the largest. */
export interface LoadSpread extends Spread {
  /** Values the percentiles were taken over (all of them, or the reservoir's sample past the bound). */
  sampled: number;
}

export interface Sampler {
  add(value: number): void;
  spread(): LoadSpread;
}

/** Keeps at most `limit` values (reservoir sampling past it); count, min and max stay exact. */
export function createSampler(limit = maxSamplesPerMetric, seed = 1): Sampler {
  const kept: number[] = [];
  const ids = createIdGenerator(seed);
  const random = () => ids.random();
  let count = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  return {
    add(value) {
      count++;
      if (value < min) min = value;
      if (value > max) max = value;
      if (kept.length < limit) kept.push(value);
      else {
        const slot = Math.floor(random() * count);
        if (slot < limit) kept[slot] = value;
      }
    },
    spread() {
      const sorted = [...kept].sort((a, b) => a - b);
      return {
        count,
        min: count > 0 ? min : null,
        p50: percentile(sorted, 0.5),
        p95: percentile(sorted, 0.95),
        p99: percentile(sorted, 0.99),
        max: count > 0 ? max : null,
        sampled: sorted.length,
      };
    },
  };
}
