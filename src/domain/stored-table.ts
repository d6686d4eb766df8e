// What every store table offers, however it keeps its rows: the store, list routes and snapshots use tables only through this.

/** Reads the key(s) a row is filed under in one index; null/undefined leaves it out of that index. */
export type IndexKey<T> = (row: T) => string | null | undefined;

export interface TableDefinition<T> {
  name: string;
  id: (row: T) => string;
  indexes?: Record<string, IndexKey<T>>;
  /**
   * Append-only tables: the position an id says its row was filed at (ids minted with the position, see
   * IdGenerator.mintNumbered), so such a row is found without a map; undefined when the id says none.
   */
  positionIn?: (id: string) => number | undefined;
}

/** One change to one table, as a journal would record it. */
export type TableChange =
  | { table: string; op: "put"; row: unknown }
  | { table: string; op: "delete"; id: string };

/** Called on every change: the undo for a transaction's rollback, and the change itself for subscribers. */
export type UndoRecorder = (undo: () => void, change: TableChange) => void;

export interface ScanOptions {
  /** Walk one index bucket (with `key`) instead of the whole table. */
  index?: string;
  key?: string;
  /** Newest first. */
  reverse?: boolean;
  /** Start after this row's id (before it when reversed): a page token. Ignored when the row is gone. */
  after?: string;
}

/**
 * How a table's new contents build its secondary indexes: `bulk` at the end in one pass; `stepwise` row by
 * row as rows arrive; `deferred` not at all, leaving them to be filed once the contents are in place (see
 * DeferredIndex). A table without secondary indexes worth deferring may build them as `bulk` anyway.
 */
export type IndexBuild = "bulk" | "stepwise" | "deferred";

/** A table's new contents, built a row at a time beside the live ones, then put in place by `install`. */
export interface TableBuilder<T> {
  readonly size: number;
  /** Adds one row after the others; throws, changing nothing, when its id is already here. */
  add(row: T): void;
  /** Finishes the build, yielding between large steps so a caller can give other work its turn. */
  finish(): Generator<void>;
}

export interface StoredTable<T> {
  readonly name: string;
  readonly size: number;
  get(id: string): T | undefined;
  has(id: string): boolean;
  /** Every row, oldest first. */
  all(): T[];
  /** Rows filed under `key` in index `index`, oldest first. */
  where(index: string, key: string): T[];
  /** How many rows are filed under `key` in index `index`, without reading them. */
  count(index: string, key: string): number;
  /** The oldest row filed under `key`. */
  findOne(index: string, key: string): T | undefined;
  /** The newest row filed under `key`. */
  latest(index: string, key: string): T | undefined;
  /** The oldest row of the table. */
  oldest(): T | undefined;
  /** Rows in table order (or one index bucket's), read lazily. Do not change the table during a scan. */
  scan(options?: ScanOptions): Generator<T>;
  insert(row: T): T;
  /** Replaces a row by id with a new value; rows are immutable values, never edited in place. */
  replace(row: T): T;
  delete(id: string): T | undefined;
  /** Replaces the whole contents (restore, reset). Does not record undo; nothing changes if a row's id repeats. */
  load(rows: Iterable<T>): void;
  /** New contents for this table (see TableBuilder and IndexBuild); `stepwise` for input read while serving. */
  contents(build?: IndexBuild): TableBuilder<T>;
  /** Puts contents made by this table's `contents` in place, finishing their build first. Does not record undo. */
  install(contents: TableBuilder<T>): void;
  /** Every row as it is now, read lazily later; changes made meanwhile do not show in them. */
  frozenRows(): Iterable<T>;
  /** True while an index of contents installed with `deferred` indexes is still to be filed. */
  readonly indexesPending: boolean;
  /** Files the deferred indexes a step at a time; the table may be read and changed between steps. */
  buildIndexes(): Generator<void>;
}

/** A table whose rows only arrive at the end and leave from the front (the event log). */
export interface AppendOnlyStoredTable<T> extends StoredTable<T> {
  /** The position the next row inserted will have: an id minted with it needs no map to be found. */
  readonly nextPosition: number;
}
