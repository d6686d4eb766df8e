// The newest N of something, oldest dropped first: the request journal, finished calls' runtimes, alerts.

/**
 * Keeps the newest `capacity` items pushed. A push to a full ring overwrites the oldest in place (O(1), no
 * array shifted or copied), and says which it was, so whoever keeps more about an item can let go of that too.
 * The array grows with the pushes up to `capacity`: a ring that is made but little used costs little.
 */
export class NewestRing<T> {
  private items: T[] = [];
  /** Where the oldest item is once the ring is full (0 before). */
  private start = 0;

  constructor(
    readonly capacity: number,
    what = "capacity",
  ) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new RangeError(`${what} must be a whole number, 0 or more (got ${capacity})`);
  }

  get size(): number {
    return this.items.length;
  }

  /** Keeps `item` and returns the item it pushed out: the oldest when full, `item` itself when the capacity is 0. */
  push(item: T): T | undefined {
    const items = this.items;
    if (items.length < this.capacity) {
      items.push(item);
      return undefined;
    }
    if (this.capacity === 0) return item;
    const dropped = items[this.start];
    items[this.start] = item;
    this.start = this.start + 1 === this.capacity ? 0 : this.start + 1;
    return dropped;
  }

  /** Every item kept, oldest first. */
  toArray(): T[] {
    const { items, start } = this;
    return start === 0 ? [...items] : [...items.slice(start), ...items.slice(0, start)];
  }

  /** The items kept that `test` accepts, oldest first, in one pass without copying the rest. */
  filter(test: (item: T) => boolean): T[] {
    const { items, start } = this;
    const out: T[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[(start + i) % items.length]!;
      if (test(item)) out.push(item);
    }
    return out;
  }

  clear(): void {
    this.items = [];
    this.start = 0;
  }
}
