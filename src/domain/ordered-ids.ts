// A set of row positions kept sorted: a plain array while changes stay near its ends, a B+ tree once one would not, so adding, removing and walking stay cheap at any size.
import { type BTree, treeFromSorted } from "./sorted-tree.js";

/**
 * The most positions one change may move in the array. Index buckets change at their ends: a new row is
 * appended, a row that reaches a status was made recently (near the end), a row that leaves a status left the
 * statuses before it in about the order it came (near the front). A change further in than this would move
 * more numbers than a B+ tree step costs, so the set becomes a tree, once, and stays one.
 */
const shiftLimit = 512;

/** A dropped front is cut off once it is this long and at least half the positions held (O(1) a drop, amortized). */
const compactFrom = 1024;

/**
 * A set holds its positions in a plain array up to this many, then in a typed array. Most buckets hold a
 * few rows (one number's calls, one call's recordings), where a typed array's own objects (~200 bytes)
 * would cost more than the positions.
 */
const typedFrom = 256;

/**
 * Positions from here on do not fit a Uint32Array: a bucket that meets one moves to a Float64Array (exact to
 * 2^53). A table numbers its rows from 0 again at each restart, import or reset, so only a table that took
 * 4 billion inserts since then gets here; the guard costs a comparison per add.
 */
const wideFrom = 2 ** 32;

type Typed = Uint32Array | Float64Array;

/** A typed array of `length` slots able to hold positions up to `largest`. */
function typedArray(length: number, largest: number): Typed {
  return largest >= wideFrom ? new Float64Array(length) : new Uint32Array(length);
}

export class OrderedIds {
  /**
   * Ascending positions in `items[head..end)`; the slots before `head` were dropped, those from `end` on are
   * room to grow. Past `typedFrom` positions a typed array rather than number[]: growing a million-position
   * array copies 4 MB of plain numbers outside the JS heap (~1 ms) instead of 8 MB of tagged slots in it,
   * which held a reader 20-40 ms per bucket at 580k and 870k rows (several buckets grow on the same row);
   * and a position costs 4 bytes (8 once one reaches 2^32, see `wideFrom`).
   */
  private items: number[] | Typed | null = [];
  private head = 0;
  private end = 0;
  private tree: BTree<number, undefined> | null = null;

  /** A set holding `positions` (ascending, no repeats), which it takes over when few: built in one pass, not by adding each. */
  static fromSorted(positions: number[]): OrderedIds {
    const ids = new OrderedIds();
    if (positions.length > typedFrom) {
      const typed = typedArray(positions.length, positions[positions.length - 1]!);
      typed.set(positions);
      ids.items = typed;
    } else ids.items = positions;
    ids.end = positions.length;
    return ids;
  }

  get size(): number {
    return this.items ? this.end - this.head : this.tree!.size;
  }

  add(position: number): void {
    const items = this.items;
    if (!items) {
      this.tree!.set(position, undefined);
      return;
    }
    if (position >= wideFrom && items instanceof Uint32Array) {
      const wide = new Float64Array(items.length);
      wide.set(items);
      this.items = wide;
      this.add(position);
      return;
    }
    const end = this.end;
    // Rows are mostly filed in order: appending is the common case.
    if (end === this.head || items[end - 1]! < position) {
      this.room(position)[this.end++] = position;
      return;
    }
    const at = lowerBound(items, position, this.head, end);
    if (items[at] === position) return;
    const front = this.head > 0 ? at - this.head : Number.POSITIVE_INFINITY;
    const back = end - at;
    if (front <= back && front <= shiftLimit) {
      // Into the dropped slot before the head: the positions before `at` move one to the left.
      items.copyWithin(this.head - 1, this.head, at);
      this.head -= 1;
      items[at - 1] = position;
    } else if (back <= shiftLimit) {
      const grown = this.room(items[end - 1]!);
      grown.copyWithin(at + 1, at, end);
      grown[at] = position;
      this.end++;
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
    const at = lowerBound(items, position, this.head, this.end);
    if (at >= this.end || items[at] !== position) return;
    const front = at - this.head;
    const back = this.end - 1 - at;
    if (front <= back && front <= shiftLimit) {
      // The positions before it move one to the right, over it, and the head follows.
      items.copyWithin(this.head + 1, this.head, at);
      this.head += 1;
      if (this.head >= compactFrom && this.head * 2 >= this.end) this.compact();
    } else if (back <= shiftLimit) {
      items.copyWithin(at, at + 1, this.end);
      this.end--;
      if (this.end - this.head < items.length >> 2 && items.length > compactFrom) this.compact();
    } else {
      this.becomeTree().delete(position);
    }
  }

  first(): number | undefined {
    const items = this.items;
    if (!items) return this.tree!.minKey();
    return this.head < this.end ? items[this.head] : undefined;
  }

  last(): number | undefined {
    const items = this.items;
    if (!items) return this.tree!.maxKey();
    return this.head < this.end ? items[this.end - 1] : undefined;
  }

  /**
   * Positions in order (or reversed), starting after `after` when given (before it when reversed). Lazy:
   * the caller stops reading when it has enough. Not to be changed while a walk is under way.
   */
  *walk(reverse = false, after?: number): Generator<number> {
    const items = this.items;
    if (items) {
      const { head, end } = this;
      if (reverse) {
        let i = after === undefined ? end - 1 : lowerBound(items, after, head, end) - 1;
        for (; i >= head; i--) yield items[i]!;
      } else {
        let i = after === undefined ? head : upperBound(items, after, head, end);
        for (; i < end; i++) yield items[i]!;
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

  /**
   * The array, with room for one more position at `end` (a typed one grown by half when full, wide enough
   * for `largest`, the largest position it will then hold).
   */
  private room(largest: number): number[] | Typed {
    const items = this.items!;
    if (this.end < items.length) return items;
    if (Array.isArray(items) && this.end < typedFrom) {
      // A first position gets an array of one: push would give it room for 16 (~120 bytes more), and most
      // buckets keep one row for good (one call's text-to-speech events, one number's messages).
      if (items.length > 0) {
        items.push(0);
        return items;
      }
      const first = [0];
      this.items = first;
      return first;
    }
    const grown = typedArray(this.end + (this.end >> 1), largest);
    grown.set(Array.isArray(items) ? items : items.subarray(0, this.end));
    this.items = grown;
    return grown;
  }

  /**
   * Moves the kept positions to the front; a bucket that holds under a quarter of its room (a status many
   * rows passed through) gets a smaller array, a plain one again when it holds under `typedFrom`, so room
   * once needed is not kept for good. Only a typed array gets here: a plain one holds under `typedFrom`
   * positions, fewer than either cut needs.
   */
  private compact(): void {
    const items = this.items as Typed;
    const kept = this.end - this.head;
    if (kept < typedFrom) {
      this.items = Array.from(items.subarray(this.head, this.end));
    } else if (kept < items.length >> 2) {
      const smaller = typedArray(kept * 2, items[this.end - 1]!);
      smaller.set(items.subarray(this.head, this.end));
      this.items = smaller;
    } else {
      items.copyWithin(0, this.head, this.end);
    }
    this.head = 0;
    this.end = kept;
  }

  private becomeTree(): BTree<number, undefined> {
    const positions = Array.prototype.slice.call(this.items!, this.head, this.end) as number[];
    this.tree = treeFromSorted(positions, new Array<undefined>(positions.length).fill(undefined));
    this.items = null;
    this.head = 0;
    this.end = 0;
    return this.tree;
  }
}

/** The first index in [from, to) whose value is >= `value` (`to` when none is). */
function lowerBound(values: ArrayLike<number>, value: number, from = 0, to = values.length): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first index in [from, to) whose value is > `value` (`to` when none is). */
function upperBound(values: ArrayLike<number>, value: number, from: number, to: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! <= value) low = mid + 1;
    else high = mid;
  }
  return low;
}
