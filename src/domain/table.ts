// One in-memory table: rows by id in insertion order, plus secondary indexes for list filters.

/** Reads the key(s) a row is filed under in one index; null/undefined leaves it out of that index. */
export type IndexKey<T> = (row: T) => string | null | undefined;

export interface TableDefinition<T> {
  name: string;
  id: (row: T) => string;
  indexes?: Record<string, IndexKey<T>>;
}

/** One change to one table, as a journal would record it. */
export type TableChange =
  | { table: string; op: "put"; row: unknown }
  | { table: string; op: "delete"; id: string };

/** Called on every change: the undo for a transaction's rollback, and the change itself for subscribers. */
export type UndoRecorder = (undo: () => void, change: TableChange) => void;

export class Table<T> {
  readonly name: string;
  private readonly idOf: (row: T) => string;
  private readonly rows = new Map<string, T>();
  /** Insertion order of each id, so index lookups list rows oldest first even after updates. */
  private readonly order = new Map<string, number>();
  private nextOrder = 0;
  private readonly indexDefs: [string, IndexKey<T>][];
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  private readonly recordUndo: UndoRecorder;

  constructor(definition: TableDefinition<T>, recordUndo: UndoRecorder) {
    this.name = definition.name;
    this.idOf = definition.id;
    this.indexDefs = Object.entries(definition.indexes ?? {});
    for (const [name] of this.indexDefs) this.indexes.set(name, new Map());
    this.recordUndo = recordUndo;
  }

  get size(): number {
    return this.rows.size;
  }

  get(id: string): T | undefined {
    return this.rows.get(id);
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** Every row, oldest first. */
  all(): T[] {
    return [...this.rows.values()];
  }

  /** Rows filed under `key` in index `index`, oldest first. */
  where(index: string, key: string): T[] {
    const ids = this.indexes.get(index);
    if (!ids) throw new Error(`table ${this.name} has no index ${index}`);
    const set = ids.get(key);
    if (!set) return [];
    const sorted = [...set].sort((a, b) => this.order.get(a)! - this.order.get(b)!);
    return sorted.map((id) => this.rows.get(id)!);
  }

  /** The single row filed under `key` (for unique indexes such as a phone number). */
  findOne(index: string, key: string): T | undefined {
    return this.where(index, key)[0];
  }

  insert(row: T): T {
    const id = this.idOf(row);
    if (this.rows.has(id)) throw new Error(`duplicate id ${id} in ${this.name}`);
    this.rows.set(id, row);
    this.order.set(id, this.nextOrder++);
    this.addToIndexes(id, row);
    this.recordUndo(
      () => {
        this.removeFromIndexes(id, row);
        this.rows.delete(id);
        this.order.delete(id);
      },
      { table: this.name, op: "put", row },
    );
    return row;
  }

  /** Replaces a row by id with a new value; rows are immutable values, never edited in place. */
  replace(row: T): T {
    const id = this.idOf(row);
    const previous = this.rows.get(id);
    if (previous === undefined) throw new Error(`no row ${id} in ${this.name}`);
    this.removeFromIndexes(id, previous);
    this.rows.set(id, row);
    this.addToIndexes(id, row);
    this.recordUndo(
      () => {
        this.removeFromIndexes(id, row);
        this.rows.set(id, previous);
        this.addToIndexes(id, previous);
      },
      { table: this.name, op: "put", row },
    );
    return row;
  }

  delete(id: string): T | undefined {
    const previous = this.rows.get(id);
    if (previous === undefined) return undefined;
    const position = this.order.get(id)!;
    const keys = [...this.rows.keys()];
    this.removeFromIndexes(id, previous);
    this.rows.delete(id);
    this.order.delete(id);
    this.recordUndo(
      () => {
        // Put the row back where it was so list order survives a rollback.
        const rows = keys
          .map((key) => (key === id ? previous : this.rows.get(key)))
          .filter((r) => r !== undefined);
        const orders = new Map(this.order);
        orders.set(id, position);
        this.load(rows as T[]);
        for (const [key, value] of orders) {
          this.order.set(key, value);
          this.nextOrder = Math.max(this.nextOrder, value + 1);
        }
      },
      { table: this.name, op: "delete", id },
    );
    return previous;
  }

  /** Replaces the whole contents (restore, rollback of a delete). Does not record undo. */
  load(rows: T[]): void {
    this.rows.clear();
    this.order.clear();
    this.nextOrder = 0;
    for (const index of this.indexes.values()) index.clear();
    for (const row of rows) {
      const id = this.idOf(row);
      this.rows.set(id, row);
      this.order.set(id, this.nextOrder++);
      this.addToIndexes(id, row);
    }
  }

  private addToIndexes(id: string, row: T): void {
    for (const [name, keyOf] of this.indexDefs) {
      const key = keyOf(row);
      if (key === null || key === undefined) continue;
      const index = this.indexes.get(name)!;
      let set = index.get(key);
      if (!set) {
        set = new Set();
        index.set(key, set);
      }
      set.add(id);
    }
  }

  private removeFromIndexes(id: string, row: T): void {
    for (const [name, keyOf] of this.indexDefs) {
      const key = keyOf(row);
      if (key === null || key === undefined) continue;
      const index = this.indexes.get(name)!;
      const set = index.get(key);
      if (!set) continue;
      set.delete(id);
      if (set.size === 0) index.delete(key);
    }
  }
}
