// A secondary index filed after a restart, a step at a time: rows below a frontier are filed, the rest are read from the table when the walk reaches them.
import { OrderedIds } from "./ordered-ids.js";
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
  /**
   * Positions per key, for the rows below the frontier: the buckets the finished index keeps, so finishing
   * converts nothing (a bucket keeps the room it grew by, up to half again its positions, where a one-step
   * conversion sized each exactly), and a million-position bucket grows as OrderedIds grows (a ~1 ms copy outside the heap,
   * where a number[] copied 8 MB of tagged slots, 20-40 ms, while the server was answering).
   */
  private readonly buckets = new Map<string, OrderedIds>();

  constructor(private readonly keyOf: (row: T) => string | null | undefined) {}

  /**
   * Files up to `limit` more rows of `rows` (the table's rows by position), stopping early once the clock
   * (`performance.now()`, read every 32 rows) reaches `until`; true once every row is filed.
   */
  step(rows: BTree<number, T>, limit: number, until = Number.POSITIVE_INFINITY): boolean {
    let filed = 0;
    const buckets = this.buckets;
    for (const [position, row] of rows.entries(this.frontier)) {
      if (
        filed === limit ||
        (filed % 32 === 0 && filed > 0 && until !== Number.POSITIVE_INFINITY && performance.now() >= until)
      ) {
        this.frontier = position;
        return false;
      }
      const key = this.keyOf(row);
      filed += 1;
      if (key === null || key === undefined) continue;
      (buckets.get(key) ?? this.newBucket(key)).add(position);
    }
    this.frontier = Number.POSITIVE_INFINITY;
    return true;
  }

  /** The finished index, once `step` has said every row is filed: its buckets, handed over. */
  build(): Map<string, OrderedIds> {
    return this.buckets;
  }

  /** A row now filed under `key` at `position` (an update, or a rolled-back delete). */
  file(key: string, position: number): void {
    if (position >= this.frontier) return;
    (this.buckets.get(key) ?? this.newBucket(key)).add(position);
  }

  private newBucket(key: string): OrderedIds {
    const bucket = new OrderedIds();
    this.buckets.set(key, bucket);
    return bucket;
  }

  /** A row no longer filed under `key` at `position`. */
  unfile(key: string, position: number): void {
    if (position >= this.frontier) return;
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    bucket.delete(position);
    if (bucket.size === 0) this.buckets.delete(key);
  }
}
