// The sandbox's state: indexed tables, atomic multi-table changes, and plain-JSON snapshots.
import { AppendOnlyTable } from "./append-only-table.js";
import { type StoreSnapshot, storeSnapshotSchema, tableDefinitions, tableNames } from "./store-tables.js";
import type { AppendOnlyStoredTable, StoredTable } from "./stored-table.js";
import { Table, type TableChange, type TableDefinition } from "./table.js";

export {
  finishedKey,
  type StoreSnapshot,
  storeSnapshotSchema,
  tableDefinitions,
  tableNames,
  tableRowSchemas,
} from "./store-tables.js";

export type Tables = {
  [K in Exclude<keyof StoreSnapshot, "events">]: StoredTable<StoreSnapshot[K][number]>;
} & { events: AppendOnlyStoredTable<StoreSnapshot["events"][number]> };

/** Receives each committed change as one batch: a whole transaction, or a single change made outside one. */
export type ChangeListener = (batch: TableChange[]) => void;

/** Runs once changes are committed, to make changes of its own (a bound on what the store keeps). */
export type CommitHook = () => void;

export interface Store extends Tables {
  /** Calls `listener` after every committed change (a journal subscribes here); returns an unsubscribe function. */
  subscribe(listener: ChangeListener): () => void;
  /**
   * Runs `hook` after changes: at the end of every outermost transaction, as part of it (what it changes
   * joins the transaction's batch, and a throw rolls the whole back), and after a change made outside a
   * transaction, once the code that made it has run (a microtask), in a transaction of its own. Never for
   * `load`, `restore` or `clear`, nor for its own changes. One hook at a time; null removes it.
   */
  onCommit(hook: CommitHook | null): void;
  /** Empties every table (not reported to subscribers: a reset is followed by a snapshot). */
  clear(): void;
  /**
   * Runs `change` as one atomic change: if it throws, every table is put back as it was.
   * Nested calls join the outer change.
   */
  transact<R>(change: () => R): R;
  snapshot(): StoreSnapshot;
  /** Every table's rows as they are now, read lazily (see `Table.frozenRows`). */
  capture(): [keyof StoreSnapshot, Iterable<unknown>][];
  /** Replaces all contents; the snapshot is validated first, so a bad one changes nothing. */
  restore(snapshot: unknown): void;
  /**
   * Files the indexes a restart left for later (see DeferredIndex), a step at a time; between steps the
   * store may be read and changed as usual.
   */
  buildIndexes(): Generator<void>;
}

export function createStore(): Store {
  let undoLog: (() => void)[] | null = null;
  let pending: TableChange[] = [];
  const listeners = new Set<ChangeListener>();
  const emit = (batch: TableChange[]) => {
    for (const listener of listeners) listener(batch);
  };
  let commitHook: CommitHook | null = null;
  let hookRunning = false;
  let hookQueued = false;
  const runHook = () => {
    if (!commitHook || hookRunning) return;
    hookRunning = true;
    try {
      commitHook();
    } finally {
      hookRunning = false;
    }
  };
  const recordUndo = (undo: () => void, change: TableChange) => {
    if (undoLog) {
      undoLog.push(undo);
      if (listeners.size > 0) pending.push(change);
      return;
    }
    if (listeners.size > 0) emit([change]);
    if (commitHook && !hookRunning && !hookQueued) {
      hookQueued = true;
      queueMicrotask(() => {
        hookQueued = false;
        if (commitHook) store.transact(() => undefined);
      });
    }
  };
  const tables = Object.fromEntries(
    Object.entries(tableDefinitions).map(([key, definition]) => [
      key,
      key === "events"
        ? new AppendOnlyTable(definition as TableDefinition<unknown>, recordUndo)
        : new Table(definition as TableDefinition<unknown>, recordUndo),
    ]),
  ) as unknown as Tables;
  const names = tableNames;

  const store: Store = {
    ...tables,
    transact(change) {
      if (undoLog) return change();
      const log: (() => void)[] = [];
      undoLog = log;
      pending = [];
      try {
        const result = change();
        runHook();
        undoLog = null;
        const batch = pending;
        pending = [];
        if (batch.length > 0) emit(batch);
        return result;
      } catch (error) {
        undoLog = null;
        pending = [];
        for (let i = log.length - 1; i >= 0; i--) log[i]!();
        throw error;
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onCommit(hook) {
      commitHook = hook;
    },
    clear() {
      for (const name of names) (tables[name] as StoredTable<unknown>).load([]);
    },
    capture() {
      return names.map((name) => [name, (tables[name] as StoredTable<unknown>).frozenRows()]);
    },
    snapshot() {
      return Object.fromEntries(
        names.map((name) => [name, structuredClone(tables[name].all())]),
      ) as StoreSnapshot;
    },
    *buildIndexes() {
      while (names.some((name) => (tables[name] as StoredTable<unknown>).indexesPending))
        for (const name of names) yield* (tables[name] as StoredTable<unknown>).buildIndexes();
    },
    restore(snapshot) {
      const parsed = storeSnapshotSchema.parse(snapshot);
      for (const name of names) (tables[name] as StoredTable<unknown>).load(parsed[name]);
    },
  };
  return store;
}
