// A secondary index filed after a restart, a step at a time: rows below a frontier are filed, the rest are read from the table when the walk reaches them.
import { lowerBound, OrderedIds } from "./ordered-ids.js";
import type { BTree } from "./sorted-tree.js";

/**
 * Filing every row in every index cost about a quarter of a restart's time at 1M rows; done afterwards in
 * steps, the server answers first. Changes made meanwhile stay right: a row below the frontier was filed (by
 * the walk or by the change itself) and is moved here; a row at or past it is left for the walk, which reads
 * the row as it is then. Whoever needs the index before the walk is done finishes it at once (`Table`).
 */
export class DeferredIndex<T> {
  /** Positions below this are filed in `buckets`; the walk goes on from here. */
  private frontier = 0;
  /** Ascending positions per key, for the rows below the frontier. */
  private readonly buckets = new Map<string, number[]>();

  constructor(private readonly keyOf: (row: T) => string | null | undefined) {}

  /** Files up to `limit` more rows of `rows` (the table's rows by position); true once every row is filed. */
  step(rows: BTree<number, T>, limit: number): boolean {
    let filed = 0;
    const buckets = this.buckets;
    for (const [position, row] of rows.entries(this.frontier)) {
      if (filed === limit) {
        this.frontier = position;
        return false;
      }
      const key = this.keyOf(row);
      filed += 1;
      if (key === null || key === undefined) continue;
      const bucket = buckets.get(key);
      if (bucket) bucket.push(position);
      else buckets.set(key, [position]);
    }
    this.frontier = Number.POSITIVE_INFINITY;
    return true;
  }

  /** The finished index, once `step` has said every row is filed. */
  build(): Map<string, OrderedIds> {
    const built = new Map<string, OrderedIds>();
    for (const [key, positions] of this.buckets) built.set(key, OrderedIds.fromSorted(positions));
    return built;
  }

  /** A row now filed under `key` at `position` (an update, or a rolled-back delete). */
  file(key: string, position: number): void {
    if (position >= this.frontier) return;
    const bucket = this.buckets.get(key);
    if (!bucket) {
      this.buckets.set(key, [position]);
      return;
    }
    const at = lowerBound(bucket, position);
    if (bucket[at] !== position) bucket.splice(at, 0, position);
  }

  /** A row no longer filed under `key` at `position`. */
  unfile(key: string, position: number): void {
    if (position >= this.frontier) return;
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    const at = lowerBound(bucket, position);
    if (bucket[at] !== position) return;
    bucket.splice(at, 1);
    if (bucket.length === 0) this.buckets.delete(key);
  }
}
