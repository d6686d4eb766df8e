// A set of row positions kept sorted: a plain array while small, a B+ tree once large, so adding, removing and walking stay cheap at any size.
import { BTree, treeFromSorted } from "./sorted-tree.js";

/**
 * Past this many positions a bucket moves into a B+ tree. Below it a sorted array is smaller (most index
 * buckets hold a handful of rows) and an insert or removal shifts at most this many numbers.
 */
const treeFrom = 256;

export class OrderedIds {
  private small: number[] | null = [];
  private tree: BTree<number, undefined> | null = null;

  /** A set holding `positions` (ascending, no repeats), which it takes over: built in one pass, not by adding each. */
  static fromSorted(positions: number[]): OrderedIds {
    const ids = new OrderedIds();
    if (positions.length > treeFrom) {
      ids.tree = treeFromSorted(positions, new Array<undefined>(positions.length).fill(undefined));
      ids.small = null;
    } else {
      ids.small = positions;
    }
    return ids;
  }

  get size(): number {
    return this.small ? this.small.length : this.tree!.size;
  }

  add(position: number): void {
    const small = this.small;
    if (small) {
      // Rows are mostly filed in order: appending is the common case.
      if (small.length === 0 || small[small.length - 1]! < position) small.push(position);
      else {
        const at = lowerBound(small, position);
        if (small[at] === position) return;
        // Shifted in place: splice would allocate an array of the removed items on every call.
        small.push(position);
        small.copyWithin(at + 1, at, small.length - 1);
        small[at] = position;
      }
      if (small.length > treeFrom) {
        this.tree = new BTree<number, undefined>(small.map((p) => [p, undefined] as [number, undefined]));
        this.small = null;
      }
      return;
    }
    this.tree!.set(position, undefined);
  }

  delete(position: number): void {
    const small = this.small;
    if (small) {
      const at = lowerBound(small, position);
      if (small[at] === position) {
        small.copyWithin(at, at + 1);
        small.pop();
      }
      return;
    }
    this.tree!.delete(position);
  }

  first(): number | undefined {
    return this.small ? this.small[0] : this.tree!.minKey();
  }

  last(): number | undefined {
    return this.small ? this.small[this.small.length - 1] : this.tree!.maxKey();
  }

  /**
   * Positions in order (or reversed), starting after `after` when given (before it when reversed). Lazy:
   * the caller stops reading when it has enough. Not to be changed while a walk is under way.
   */
  *walk(reverse = false, after?: number): Generator<number> {
    const small = this.small;
    if (small) {
      if (reverse) {
        let i = after === undefined ? small.length - 1 : lowerBound(small, after) - 1;
        for (; i >= 0; i--) yield small[i]!;
      } else {
        let i = after === undefined ? 0 : upperBound(small, after);
        for (; i < small.length; i++) yield small[i]!;
      }
      return;
    }
    const tree = this.tree!;
    if (reverse) {
      const start = after === undefined ? tree.maxKey() : tree.nextLowerKey(after);
      if (start === undefined) return;
      for (const [key] of tree.entriesReversed(start)) yield key;
    } else {
      const start = after === undefined ? tree.minKey() : tree.nextHigherKey(after);
      if (start === undefined) return;
      for (const key of tree.keys(start)) yield key;
    }
  }
}

/** The first index whose value is >= `value`. */
export function lowerBound(values: number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first index whose value is > `value`. */
function upperBound(values: number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
