// A set of row positions kept sorted: a plain array while changes stay near its ends, a B+ tree once one would not, so adding, removing and walking stay cheap at any size.
import { type BTree, treeFromSorted } from "./sorted-tree.js";

/**
 * The most positions one change may move in the array. Index buckets change at their ends: a new row is
 * appended, a row that reaches a status was made recently (near the end), a row that leaves a status left the
 * statuses before it in about the order it came (near the front). A change further in than this would move
 * more numbers than a B+ tree step costs, so the set becomes a tree, once, and stays one.
 */
const shiftLimit = 512;

/** A dropped front is cut off once it is this long and at least half the array (O(1) a drop, amortized). */
const compactFrom = 1024;

export class OrderedIds {
  /** Ascending positions from `head` on; the slots before `head` were dropped. */
  private items: number[] | null = [];
  private head = 0;
  private tree: BTree<number, undefined> | null = null;

  /** A set holding `positions` (ascending, no repeats), which it takes over: built in one pass, not by adding each. */
  static fromSorted(positions: number[]): OrderedIds {
    const ids = new OrderedIds();
    ids.items = positions;
    return ids;
  }

  get size(): number {
    return this.items ? this.items.length - this.head : this.tree!.size;
  }

  add(position: number): void {
    const items = this.items;
    if (!items) {
      this.tree!.set(position, undefined);
      return;
    }
    const end = items.length;
    // Rows are mostly filed in order: appending is the common case.
    if (end === this.head || items[end - 1]! < position) {
      items.push(position);
      return;
    }
    const at = lowerBound(items, position, this.head);
    if (items[at] === position) return;
    const front = this.head > 0 ? at - this.head : Number.POSITIVE_INFINITY;
    const back = end - at;
    if (front <= back && front <= shiftLimit) {
      // Into the dropped slot before the head: the positions before `at` move one to the left.
      items.copyWithin(this.head - 1, this.head, at);
      this.head -= 1;
      items[at - 1] = position;
    } else if (back <= shiftLimit) {
      items.push(position);
      items.copyWithin(at + 1, at, end);
      items[at] = position;
    } else {
      this.becomeTree().set(position, undefined);
    }
  }

  delete(position: number): void {
    const items = this.items;
    if (!items) {
      this.tree!.delete(position);
      return;
    }
    const at = lowerBound(items, position, this.head);
    if (at >= items.length || items[at] !== position) return;
    const front = at - this.head;
    const back = items.length - 1 - at;
    if (front <= back && front <= shiftLimit) {
      // The positions before it move one to the right, over it, and the head follows.
      items.copyWithin(this.head + 1, this.head, at);
      this.head += 1;
      if (this.head >= compactFrom && this.head * 2 >= items.length) {
        this.items = items.slice(this.head);
        this.head = 0;
      }
    } else if (back <= shiftLimit) {
      items.copyWithin(at, at + 1);
      items.pop();
    } else {
      this.becomeTree().delete(position);
    }
  }

  first(): number | undefined {
    const items = this.items;
    if (!items) return this.tree!.minKey();
    return this.head < items.length ? items[this.head] : undefined;
  }

  last(): number | undefined {
    const items = this.items;
    if (!items) return this.tree!.maxKey();
    return this.head < items.length ? items[items.length - 1] : undefined;
  }

  /**
   * Positions in order (or reversed), starting after `after` when given (before it when reversed). Lazy:
   * the caller stops reading when it has enough. Not to be changed while a walk is under way.
   */
  *walk(reverse = false, after?: number): Generator<number> {
    const items = this.items;
    if (items) {
      const head = this.head;
      if (reverse) {
        let i = after === undefined ? items.length - 1 : lowerBound(items, after, head) - 1;
        for (; i >= head; i--) yield items[i]!;
      } else {
        let i = after === undefined ? head : upperBound(items, after, head);
        for (; i < items.length; i++) yield items[i]!;
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

  private becomeTree(): BTree<number, undefined> {
    const positions = this.items!.slice(this.head);
    this.tree = treeFromSorted(positions, new Array<undefined>(positions.length).fill(undefined));
    this.items = null;
    this.head = 0;
    return this.tree;
  }
}

/** The first index at or after `from` whose value is >= `value`. */
export function lowerBound(values: number[], value: number, from = 0): number {
  let low = from;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first index at or after `from` whose value is > `value`. */
function upperBound(values: number[], value: number, from: number): number {
  let low = from;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
