// A load run's figures in a form shard results add up in: each metric's values also in an HdrHistogram, encoded.
import type { Histogram } from "hdr-histogram-js";
import { createSampler, type LoadSpread, maxSamplesPerMetric } from "./samples.js";

export type Hdr = typeof import("hdr-histogram-js");

/**
 * Significant digits the histograms keep: with 4, every whole ms up to 32,767 has a bucket of its own, so a
 * merged percentile of latencies under half a minute is the value itself, and above it within 0.01 %.
 */
export const histogramDigits = 4;

let hdr: Promise<Hdr> | undefined;
/** hdr-histogram-js is loaded by a load run or a merge only, not by every import of the library. */
export const loadHdr = (): Promise<Hdr> => {
  hdr ??= import("hdr-histogram-js");
  return hdr;
};

/** One metric of one run, as a merge needs it: the exact count, min and max, and the encoded histogram. */
export interface MergeableSpread {
  count: number;
  min: number | null;
  max: number | null;
  /** HdrHistogram's compressed base64 form (ms, or a count), whole numbers. */
  histogram: string;
}

export interface Metric {
  add(value: number): void;
  /** The run's own spread: its percentiles from the values themselves (or the seeded sample past the bound). */
  spread(): LoadSpread;
  mergeable(): MergeableSpread;
}

const newHistogram = (h: Hdr): Histogram =>
  h.build({ numberOfSignificantValueDigits: histogramDigits, bitBucketSize: 32, autoResize: true });

/** A histogram holds whole numbers from 0 up; the sandbox's figures are whole ms or counts already. */
const recorded = (value: number) => Math.max(0, Math.round(value));

/** A metric whose run keeps its values (a bounded sample) for exact percentiles and a histogram for merging. */
export function createMetric(h: Hdr, seed: number, limit = maxSamplesPerMetric): Metric {
  const sampler = createSampler(limit, seed);
  const histogram = newHistogram(h);
  return {
    add(value) {
      sampler.add(value);
      histogram.recordValue(recorded(value));
    },
    spread: () => sampler.spread(),
    mergeable() {
      const s = sampler.spread();
      return { count: s.count, min: s.min, max: s.max, histogram: h.encodeIntoCompressedBase64(histogram) };
    },
  };
}

/** Nearest rank, as a single run's percentiles are taken (agent-metrics.ts `percentile`). */
const rankOf = (q: number, n: number) => Math.min(n, Math.max(1, Math.ceil(q * n)));

/** Throws when the text is not a histogram this module wrote (a merge turns it into a LoadMergeError). */
export function decodeHistogram(h: Hdr, encoded: string): Histogram {
  if (typeof encoded !== "string" || encoded.length === 0) throw new Error("no histogram");
  return h.decodeFromCompressedBase64(encoded, 32, false);
}

/** The runs' values together: count, min and max exact, the histograms added. */
function addUp(h: Hdr, parts: readonly MergeableSpread[]) {
  const histogram = newHistogram(h);
  let count = 0;
  let min: number | null = null;
  let max: number | null = null;
  for (const part of parts) {
    if (part.count === 0) continue;
    count += part.count;
    if (part.min !== null && (min === null || part.min < min)) min = part.min;
    if (part.max !== null && (max === null || part.max > max)) max = part.max;
    histogram.add(decodeHistogram(h, part.histogram));
  }
  return { histogram, count, min, max };
}

/** The runs' metric as one mergeable metric (a merged result can be merged again). */
export function mergedMergeable(h: Hdr, parts: readonly MergeableSpread[]): MergeableSpread {
  const { histogram, count, min, max } = addUp(h, parts);
  return { count, min, max, histogram: h.encodeIntoCompressedBase64(histogram) };
}

/**
 * The spread of the runs' values together: count, min and max exact, percentiles from the added histograms
 * (nearest rank, the bucket's highest value, kept within min and max), over every value (`sampled` = count).
 */
export function mergedSpread(h: Hdr, parts: readonly MergeableSpread[]): LoadSpread {
  const { histogram, count, min, max } = addUp(h, parts);
  const n = histogram.totalCount;
  const at = (q: number): number | null => {
    if (n === 0 || min === null || max === null) return null;
    const value = histogram.getValueAtPercentile((rankOf(q, n) / n) * 100);
    return Math.min(max, Math.max(min, value));
  };
  return { count, min, p50: at(0.5), p95: at(0.95), p99: at(0.99), max, sampled: n };
}
