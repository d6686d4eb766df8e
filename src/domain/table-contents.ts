// A table's new contents built beside the live ones (restore, import, restart), rows and indexes filed in bulk, stepwise or deferred.
import { IdMap } from "./id-map.js";
import { OrderedIds } from "./ordered-ids.js";
import { BTree, treeFromSorted } from "./sorted-tree.js";
import type { IndexBuild, IndexKey, TableBuilder } from "./stored-table.js";

/**
 * A table's contents built from rows in table order. In a bulk or deferred build each row is filed as it
 * arrives (a map entry and a pushed position per index, no tree walk), then `finish` builds the row tree
 * bottom up from the sorted positions in one pass, a step at a time so a caller can give other work its turn
 * between steps; a stepwise build files each row in the tree and its index buckets as it arrives.
 */
export class TableContents<T> implements TableBuilder<T> {
  private readonly position = new IdMap();
  /** Rows in order, for a bulk or deferred build (a stepwise build files them in `tree` instead). */
  private readonly list: T[] = [];
  private readonly buckets: Map<string, number[]>[];
  /** Step by step: the trees themselves, filled as rows arrive. */
  private readonly tree: BTree<number, T> | undefined;
  private readonly ordered: Map<string, OrderedIds>[] | undefined;
  built:
    | {
        position: IdMap;
        byPosition: BTree<number, T>;
        indexes: Map<string, Map<string, OrderedIds>>;
      }
    | undefined;

  constructor(
    private readonly name: string,
    private readonly idOf: (row: T) => string,
    private readonly indexDefs: [string, IndexKey<T>][],
    /**
     * `stepwise`: file each row in the trees as it arrives (a few tree steps a row) rather than build them
     * at the end: for rows read while the server serves, where building a million-row tree at once would
     * hold it for a tenth of a second, and the reader already pauses between rows. `deferred`: file no
     * index here at all (a restart; the table files them once in place).
     */
    readonly build: IndexBuild = "bulk",
  ) {
    this.buckets = indexDefs.map(() => new Map());
    if (build === "stepwise") {
      this.tree = new BTree<number, T>();
      this.ordered = indexDefs.map(() => new Map());
    }
  }

  get size(): number {
    return this.position.size;
  }

  /** Adds one row after the others; throws, changing nothing, when its id is already here. */
  add(row: T): void {
    const id = this.idOf(row);
    if (this.position.has(id)) throw new Error(`duplicate id ${id} in ${this.name}`);
    const at = this.position.size;
    this.position.set(id, at);
    const ordered = this.ordered;
    // Stepwise, the rows go straight into the tree: a million-row array beside it would also stall the
    // reader each time it grows (a copy of all of it; 19-28 ms measured at 580k and 870k rows).
    if (ordered) this.tree!.set(at, row);
    else this.list.push(row);
    if (this.build === "deferred") return;
    for (let i = 0; i < this.indexDefs.length; i++) {
      const key = this.indexDefs[i]![1](row);
      if (key === null || key === undefined) continue;
      if (ordered) {
        let bucket = ordered[i]!.get(key);
        if (!bucket) {
          bucket = new OrderedIds();
          ordered[i]!.set(key, bucket);
        }
        bucket.add(at);
        continue;
      }
      const bucket = this.buckets[i]!.get(key);
      if (bucket) bucket.push(at);
      else this.buckets[i]!.set(key, [at]);
    }
  }

  /** Builds the trees, yielding after each large one; `built` is set once it is done. */
  *finish(): Generator<void> {
    if (this.built) return;
    if (this.ordered) {
      const indexes = new Map(this.indexDefs.map(([name], i) => [name, this.ordered![i]!]));
      this.built = { position: this.position, byPosition: this.tree!, indexes };
      return;
    }
    const positions = new Array<number>(this.list.length);
    for (let i = 0; i < positions.length; i++) positions[i] = i;
    const byPosition = treeFromSorted(positions, this.list);
    yield;
    const indexes = new Map<string, Map<string, OrderedIds>>();
    // Deferred: the table files its indexes itself once the contents are in place.
    const filed = this.build === "deferred" ? 0 : this.indexDefs.length;
    for (let i = 0; i < filed; i++) {
      const built = new Map<string, OrderedIds>();
      let sinceYield = 0;
      for (const [key, bucket] of this.buckets[i]!) {
        built.set(key, OrderedIds.fromSorted(bucket));
        sinceYield += bucket.length;
        if (sinceYield >= 100_000) {
          sinceYield = 0;
          yield;
        }
      }
      indexes.set(this.indexDefs[i]![0], built);
    }
    this.built = { position: this.position, byPosition, indexes };
  }
}
