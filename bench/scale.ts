// The scale benchmark: 1k, 100k and 1M calls and messages (with events), each size in a fresh process, and how flat each cost stays as the state grows.
import { runInChild } from "./lib.js";

export interface ScaleFigures {
  size: number;
  fillMs: number;
  rssPerRecord: number;
  /** V8 heap per record after the fill, and after a restart read the same state back from disk. */
  heapPerRecord: number;
  restartHeapPerRecord: number;
  lookupMs: number;
  carrierPageMs: number;
  accountPageMs: number;
  exportMs: number;
  importMs: number;
  exportBytes: number;
  /** The longest the event loop was held (another request kept waiting) during the export, and the import. */
  exportBlockMs: number;
  importBlockMs: number;
  /** Until the restarted sandbox answers requests, and until its secondary indexes are all filed (in the background). */
  restartMs: number;
  indexesMs: number;
  /** The longest the event loop was held while the restarted sandbox filed its indexes. */
  indexesBlockMs: number;
}

export interface ScaleResult {
  name: string;
  sizes: ScaleFigures[];
  /** Largest over smallest size, per cost that should stay flat. */
  flatness: { lookup: number; carrierPage: number; accountPage: number };
  ok: boolean;
}

const runSize = (size: number) =>
  runInChild<ScaleFigures>(
    "bench/scale-size.ts",
    [String(size)],
    ["--expose-gc", "--max-old-space-size=16384"],
  );

const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));

export async function benchScale(): Promise<ScaleResult> {
  const sizes = (process.env.BENCH_SCALE_SIZES ?? "1000,100000,1000000").split(",").map(Number);
  console.log(
    `Scale: ${sizes.join(", ")} calls and as many messages, two events each (in-process, through the core)`,
  );
  const figures: ScaleFigures[] = [];
  for (const size of sizes) {
    const f = await runSize(size);
    figures.push(f);
    console.log(
      `  ${String(size).padStart(9)}: lookup ${ms(f.lookupMs)} ms, filtered page carrier ${ms(f.carrierPageMs)} ms / account ${ms(f.accountPageMs)} ms, ` +
        `RSS ${f.rssPerRecord.toFixed(0)} B/record (heap ${f.heapPerRecord.toFixed(0)}, after restart ${f.restartHeapPerRecord.toFixed(0)}), ` +
        `export ${ms(f.exportMs)} ms (${(f.exportBytes / 1e6).toFixed(1)} MB, longest block ${ms(f.exportBlockMs)} ms), ` +
        `import ${ms(f.importMs)} ms (longest block ${ms(f.importBlockMs)} ms), restart ${ms(f.restartMs)} ms (indexes filed by ${ms(f.indexesMs)} ms, longest block ${ms(f.indexesBlockMs)} ms)`,
    );
  }
  const first = figures[0]!;
  const last = figures[figures.length - 1]!;
  const flatness = {
    lookup: last.lookupMs / first.lookupMs,
    carrierPage: last.carrierPageMs / first.carrierPageMs,
    accountPage: last.accountPageMs / first.accountPageMs,
  };
  console.log(
    `  flatness ${last.size}/${first.size}: lookup ${flatness.lookup.toFixed(2)}, carrier page ${flatness.carrierPage.toFixed(2)}, account page ${flatness.accountPage.toFixed(2)}\n`,
  );
  const ok =
    last.rssPerRecord < 1024 &&
    (last.size < 1_000_000 || last.restartMs < 10_000) &&
    last.carrierPageMs < 50 &&
    last.accountPageMs < 50;
  return { name: "scale", sizes: figures, flatness, ok };
}

if (import.meta.url === `file://${process.argv[1]}`) await benchScale();
