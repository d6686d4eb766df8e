// The B+ tree the store's indexes are built on (sorted-btree), found the same way under Node's and bundlers' CommonJS interop, and its bottom-up builder.
import * as sortedBtree from "sorted-btree";
import * as bulkLoading from "sorted-btree/extended/bulkLoad.js";

type BTreeClass = typeof sortedBtree.default.default;
const loaded = (sortedBtree as unknown as { default: BTreeClass | { default: BTreeClass } }).default;

/** Node hands a CommonJS module over whole as `default`; bundlers unwrap its own `default` member first. */
export const BTree: BTreeClass = typeof loaded === "function" ? loaded : loaded.default;
export type BTree<K, V> = InstanceType<typeof sortedBtree.default.default<K, V>>;

type BulkLoad = typeof bulkLoading.bulkLoad;
const bulkModule = bulkLoading as unknown as { bulkLoad?: BulkLoad; default?: { bulkLoad: BulkLoad } };
const bulkLoad: BulkLoad = bulkModule.bulkLoad ?? bulkModule.default!.bulkLoad;

/** Nodes of this many entries, sorted-btree's default. */
const nodeSize = 32;
const byNumber = (a: number, b: number) => a - b;

/**
 * A tree of `keys` (ascending, no repeats) and their values built bottom up in O(n): leaves filled in one
 * pass, then each level above, instead of one insert (a walk from the root) per entry.
 */
export function treeFromSorted<V>(keys: number[], values: V[]): BTree<number, V> {
  return keys.length === 0
    ? new BTree<number, V>(undefined, byNumber)
    : bulkLoad(keys, values, nodeSize, byNumber);
}
