// The B+ tree the store's indexes are built on (sorted-btree), found the same way under Node's and bundlers' CommonJS interop.
import * as sortedBtree from "sorted-btree";

type BTreeClass = typeof sortedBtree.default.default;
const loaded = (sortedBtree as unknown as { default: BTreeClass | { default: BTreeClass } }).default;

/** Node hands a CommonJS module over whole as `default`; bundlers unwrap its own `default` member first. */
export const BTree: BTreeClass = typeof loaded === "function" ? loaded : loaded.default;
export type BTree<K, V> = InstanceType<typeof sortedBtree.default.default<K, V>>;
