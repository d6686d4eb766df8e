// Ascending row positions that arrive at the end and leave from the front: an append-only table's index buckets.

/** A queue's dropped front is cut off once it is this long and at least half of what it holds, so each drop costs O(1) amortized. */
export const compactFrom = 1024;

/**
 * Ascending row positions: pushed at the end, dropped from the front, read by binary search. Most queues stay
 * short (one resource's few events), so the array starts with room for one and doubles when full: a push onto
 * a full array would reserve room for 17 or more. Measured (docs/decisions.md, form POST write path): a full
 * window of 100,000 events held 3.6 MB less.
 */
export class PositionQueue {
  /** Positions live in `items[head]` to `items[end - 1]`; slots from `end` on are room to grow. */
  private items: number[];
  private head = 0;
  private end: number;

  constructor(first: number) {
    this.items = [first];
    this.end = 1;
  }

  get size(): number {
    return this.end - this.head;
  }

  first(): number | undefined {
    return this.size === 0 ? undefined : this.items[this.head];
  }

  last(): number | undefined {
    return this.size === 0 ? undefined : this.items[this.end - 1];
  }

  push(position: number): void {
    if (this.end === this.items.length) this.resize(this.size * 2);
    this.items[this.end++] = position;
  }

  /** Takes back the newest position (an insert undone). */
  pop(): void {
    this.end--;
  }

  /** Drops the oldest position. */
  shift(): void {
    this.head++;
    if (this.head >= compactFrom && this.head * 2 >= this.end) this.resize(this.size);
  }

  /**
   * Puts a dropped oldest position back in front (a drop undone). With no room in front, as much room as the
   * queue holds is made there, so undoing a long run of drops costs O(1) a position amortized.
   */
  unshift(position: number): void {
    if (this.head === 0) this.resize(this.size, Math.max(this.size, 1));
    this.items[--this.head] = position;
  }

  /** Positions oldest first (newest first when reversed), starting after `after` (before it when reversed). */
  *walk(reverse: boolean, after?: number): Generator<number> {
    // The array and its bounds as they are now: a push that moves the positions to a new array mid-walk
    // leaves this one as it was.
    const { items, head, end } = this;
    if (reverse) {
      let i = after === undefined ? end - 1 : this.lowerBound(after) - 1;
      for (; i >= head; i--) yield items[i]!;
    } else {
      let i = after === undefined ? head : this.lowerBound(after + 1);
      for (; i < end; i++) yield items[i]!;
    }
  }

  /** Moves the positions to a new array with `front` free slots before them and room for `capacity` from there (at least one). */
  private resize(capacity: number, front = 0): void {
    const size = this.size;
    this.items = moved(this.items, this.head, this.end, front, front + Math.max(capacity, 1));
    this.head = front;
    this.end = front + size;
  }

  /** The first index at or after the head whose position is >= `position`. */
  private lowerBound(position: number): number {
    let low = this.head;
    let high = this.end;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.items[mid]! < position) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/**
 * `items[from]` to `items[to - 1]` in a new array of `length` slots, the first of them at index `at`: the slots
 * before it are room for what is put back in front, those after it room to push.
 */
export function moved<T>(items: readonly T[], from: number, to: number, at: number, length: number): T[] {
  const next = new Array<T>(length);
  for (let i = from; i < to; i++) next[at + i - from] = items[i]!;
  return next;
}
