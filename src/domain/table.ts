// One in-memory table: rows by id, kept in insertion order, plus secondary indexes that stay sorted for list filters.

import { DeferredIndex } from "./deferred-index.js";
import { IdMap } from "./id-map.js";
import { OrderedIds } from "./ordered-ids.js";
import { BTree } from "./sorted-tree.js";
import type {
  IndexBuild,
  IndexKey,
  ScanOptions,
  StoredTable,
  TableBuilder,
  TableDefinition,
  UndoRecorder,
} from "./stored-table.js";
import { TableContents } from "./table-contents.js";

export type {
  IndexBuild,
  IndexKey,
  ScanOptions,
  StoredTable,
  TableBuilder,
  TableChange,
  TableDefinition,
  UndoRecorder,
} from "./stored-table.js";

/**
 * Whom a table's rows belong to, which decides what deleting an account does to them:
 * `root` the accounts themselves; `account` rows found by their account index, deleted with it;
 * `parent` rows found through a parent table's row, deleted with that row; `released` rows the account
 * held that go back to the carrier (an engine rule clears them); `none` rows no account owns.
 */
export type Ownership =
  | { kind: "root" }
  | { kind: "account"; index: string }
  | { kind: "parent"; table: string; index: string }
  | { kind: "released"; index: string; why: string }
  | { kind: "none"; why: string };

/** The key of a compound index: its parts joined by a character no sid, number or status contains. */
export function compoundKey(...parts: (string | null | undefined)[]): string | null {
  // Filed on every write of a row with a compound index: a loop and concatenation, no array methods.
  let key = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === null || part === undefined) return null;
    key = i === 0 ? part : `${key}\u0000${part}`;
  }
  return key;
}

export class Table<T> implements StoredTable<T> {
  readonly name: string;
  private readonly idOf: (row: T) => string;
  /**
   * Each id's insertion position, so every index lists rows oldest first even after updates. The one map
   * by id: a row is found through its position in `byPosition` (a second map of id to row cost ~35 bytes a
   * row and a second insert per row on every restart, to save a few tree steps per lookup).
   */
  private position = new IdMap();
  /** Rows by position: the table's own order, walked by `all()` and `scan()`. */
  private byPosition = new BTree<number, T>();
  private nextPosition = 0;
  private readonly indexDefs: [string, IndexKey<T>][];
  private indexes = new Map<string, Map<string, OrderedIds>>();
  /** Indexes still being filed after a restart (see DeferredIndex); absent from `indexes` until done. */
  private deferred = new Map<string, DeferredIndex<T>>();
  private readonly recordUndo: UndoRecorder;

  constructor(definition: TableDefinition<T>, recordUndo: UndoRecorder) {
    this.name = definition.name;
    this.idOf = definition.id;
    this.indexDefs = Object.entries(definition.indexes ?? {});
    for (const [name] of this.indexDefs) this.indexes.set(name, new Map());
    this.recordUndo = recordUndo;
  }

  get size(): number {
    return this.position.size;
  }

  get(id: string): T | undefined {
    const position = this.position.get(id);
    return position === undefined ? undefined : this.byPosition.get(position);
  }

  has(id: string): boolean {
    return this.position.has(id);
  }

  /** Every row, oldest first. */
  all(): T[] {
    return this.byPosition.valuesArray();
  }

  /** Rows filed under `key` in index `index`, oldest first. */
  where(index: string, key: string): T[] {
    return [...this.scan({ index, key })];
  }

  /** How many rows are filed under `key` in index `index`, without reading them. */
  count(index: string, key: string): number {
    return this.bucket(index, key)?.size ?? 0;
  }

  /** The oldest row filed under `key` (for unique indexes such as a phone number). */
  findOne(index: string, key: string): T | undefined {
    const first = this.bucket(index, key)?.first();
    return first === undefined ? undefined : this.byPosition.get(first);
  }

  /** The newest row filed under `key` (a running balance's latest entry). */
  latest(index: string, key: string): T | undefined {
    const last = this.bucket(index, key)?.last();
    return last === undefined ? undefined : this.byPosition.get(last);
  }

  /** The oldest row of the table. */
  oldest(): T | undefined {
    const first = this.byPosition.minKey();
    return first === undefined ? undefined : this.byPosition.get(first);
  }

  /**
   * Rows in table order (or one index bucket's), read lazily: a list page stops reading once it has its
   * rows, so its cost does not grow with the table. Do not change the table while a scan is under way.
   */
  *scan(options: ScanOptions = {}): Generator<T> {
    const reverse = options.reverse ?? false;
    const after = options.after === undefined ? undefined : this.position.get(options.after);
    if (options.index !== undefined) {
      const bucket = this.bucket(options.index, options.key ?? "");
      if (!bucket) return;
      for (const position of bucket.walk(reverse, after)) yield this.byPosition.get(position)!;
      return;
    }
    const tree = this.byPosition;
    const start = reverse
      ? after === undefined
        ? tree.maxKey()
        : tree.nextLowerKey(after)
      : after === undefined
        ? tree.minKey()
        : tree.nextHigherKey(after);
    if (start === undefined) return;
    if (reverse) for (const [, row] of tree.entriesReversed(start)) yield row;
    else for (const [, row] of tree.entries(start)) yield row;
  }

  insert(row: T): T {
    const id = this.idOf(row);
    if (this.position.has(id)) throw new Error(`duplicate id ${id} in ${this.name}`);
    const position = this.nextPosition++;
    this.put(id, position, row);
    this.recordUndo(() => this.remove(id, position, row), { table: this.name, op: "put", row });
    return row;
  }

  /** Replaces a row by id with a new value; rows are immutable values, never edited in place. */
  replace(row: T): T {
    const id = this.idOf(row);
    const position = this.position.get(id);
    if (position === undefined) throw new Error(`no row ${id} in ${this.name}`);
    const previous = this.byPosition.get(position)!;
    this.swap(position, previous, row);
    this.recordUndo(() => this.swap(position, row, previous), { table: this.name, op: "put", row });
    return row;
  }

  delete(id: string): T | undefined {
    const position = this.position.get(id);
    if (position === undefined) return undefined;
    const previous = this.byPosition.get(position)!;
    this.remove(id, position, previous);
    // A rollback puts the row back at its old position, so list order survives it.
    this.recordUndo(() => this.put(id, position, previous), { table: this.name, op: "delete", id });
    return previous;
  }

  /** Replaces the whole contents (restore, reset). Does not record undo; nothing changes if a row's id repeats. */
  load(rows: Iterable<T>): void {
    const contents = this.contents();
    for (const row of rows) contents.add(row);
    this.install(contents);
  }

  /** New contents for this table, built a row at a time beside the live ones (see TableContents). */
  contents(build: IndexBuild = "bulk"): TableContents<T> {
    return new TableContents(this.name, this.idOf, this.indexDefs, build);
  }

  /** Puts `contents` in place of the rows and indexes, finishing its build first. Does not record undo. */
  install(builder: TableBuilder<T>): void {
    const contents = builder as TableContents<T>;
    for (const _step of contents.finish()) {
      // Run to the end here; a caller that must not block steps through finish() itself first.
    }
    const built = contents.built!;
    this.position = built.position;
    this.byPosition = built.byPosition;
    this.nextPosition = built.byPosition.size;
    this.indexes = built.indexes;
    this.deferred = new Map();
    if (contents.build === "deferred")
      for (const [name, keyOf] of this.indexDefs) this.deferred.set(name, new DeferredIndex(keyOf));
  }

  /** True while some index is still to be filed (contents installed with `deferred` indexes). */
  get indexesPending(): boolean {
    return this.deferred.size > 0;
  }

  /**
   * Files the deferred indexes, up to `rowsPerStep` rows and `stepMs` milliseconds a step, yielding between
   * steps; the table may change between them (and a new install starts over). An index that is needed before
   * then is finished at once.
   */
  *buildIndexes(rowsPerStep = 2_000, stepMs = 2): Generator<void> {
    while (this.deferred.size > 0) {
      const [name, index] = this.deferred.entries().next().value!;
      if (index.step(this.byPosition, rowsPerStep, performance.now() + stepMs)) this.settle(name, index);
      yield;
    }
  }

  /** Finishes a deferred index now: a read must see every row. */
  private buildNow(name: string): void {
    const index = this.deferred.get(name);
    if (!index) return;
    index.step(this.byPosition, Number.POSITIVE_INFINITY);
    this.settle(name, index);
  }

  private settle(name: string, index: DeferredIndex<T>): void {
    this.indexes.set(name, index.build());
    this.deferred.delete(name);
  }

  /**
   * Every row as it is now, read lazily later: the tree is cloned copy-on-write (O(1)), so changes made
   * while the rows are read (an export, a compaction) do not show in them.
   */
  frozenRows(): Iterable<T> {
    return this.byPosition.clone().values();
  }

  private bucket(index: string, key: string): OrderedIds | undefined {
    if (this.deferred.size > 0) this.buildNow(index);
    const buckets = this.indexes.get(index);
    if (!buckets) throw new Error(`table ${this.name} has no index ${index}`);
    return buckets.get(key);
  }

  private put(id: string, position: number, row: T): void {
    this.position.set(id, position);
    this.byPosition.set(position, row);
    for (const [name, keyOf] of this.indexDefs) this.file(name, keyOf(row), position);
  }

  private remove(id: string, position: number, row: T): void {
    this.position.delete(id);
    this.byPosition.delete(position);
    for (const [name, keyOf] of this.indexDefs) this.unfile(name, keyOf(row), position);
  }

  private swap(position: number, from: T, to: T): void {
    this.byPosition.set(position, to);
    for (const [name, keyOf] of this.indexDefs) {
      const before = keyOf(from);
      const after = keyOf(to);
      // Most updates leave most keys alone: touch only the indexes whose key moved.
      if (before === after) continue;
      this.unfile(name, before, position);
      this.file(name, after, position);
    }
  }

  private file(index: string, key: string | null | undefined, position: number): void {
    if (key === null || key === undefined) return;
    if (this.deferred.size > 0) {
      const deferred = this.deferred.get(index);
      if (deferred) {
        deferred.file(key, position);
        return;
      }
    }
    const buckets = this.indexes.get(index)!;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = new OrderedIds();
      buckets.set(key, bucket);
    }
    bucket.add(position);
  }

  private unfile(index: string, key: string | null | undefined, position: number): void {
    if (key === null || key === undefined) return;
    if (this.deferred.size > 0) {
      const deferred = this.deferred.get(index);
      if (deferred) {
        deferred.unfile(key, position);
        return;
      }
    }
    const buckets = this.indexes.get(index)!;
    const bucket = buckets.get(key);
    if (!bucket) return;
    bucket.delete(position);
    if (bucket.size === 0) buckets.delete(key);
  }
}
