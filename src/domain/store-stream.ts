// The store as a stream of rows: a point-in-time capture read lazily, and a loader that stages rows and swaps them in whole.
import { type Store, type StoreSnapshot, tableNames, tableRowSchemas } from "./store.js";
import type { IndexBuild, StoredTable, TableBuilder } from "./stored-table.js";

export type TableName = keyof StoreSnapshot;

/** Every table's rows as they were when captured, in table order; later changes do not show. */
export type StoreCapture = [TableName, Iterable<unknown>][];

/** A row the loader refused, with why. */
export class RowRefused extends Error {}

/**
 * Builds a whole new state beside the live one, row by row (so reading a large snapshot never holds it as
 * one string), then swaps every table in at once: until `commit`, the live state is untouched. Each row is
 * filed as it arrives; the trees are built at the end, bottom up (`finish`, in steps a running server can pause between).
 */
export class StoreLoader {
  private readonly staged = new Map<TableName, TableBuilder<unknown>>();
  /** Each table's last row added, whose values the next row shares where equal (see `shareValues`). */
  private readonly previous = new Map<TableName, Record<string, unknown>>();
  rows = 0;

  constructor(
    private readonly store: Store,
    /** Check each row against its table's schema (input from outside); rows from the sandbox's own files skip it. */
    private readonly validate: boolean,
    /**
     * How the indexes are built (see TableContents): input from outside arrives while the server serves, so
     * by default it is filed step by step; a restart may leave them for after the state is in place.
     */
    indexes: IndexBuild = validate ? "stepwise" : "bulk",
  ) {
    for (const name of tableNames)
      this.staged.set(name, (store[name] as StoredTable<unknown>).contents(indexes));
  }

  /** Adds one row to `table`; throws RowRefused saying why when the table or row is not valid. */
  add(table: string, row: unknown): void {
    const staged = this.staged.get(table as TableName);
    if (!staged)
      throw new RowRefused(`unknown table ${JSON.stringify(table)} (tables: ${tableNames.join(", ")})`);
    let value = row;
    if (this.validate) {
      const result = tableRowSchemas[table as TableName].safeParse(row);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        throw new RowRefused(`not a valid ${table} row: ${issue.path.join(".") || "(row)"} ${issue.message}`);
      }
      value = result.data;
      const previous = this.previous.get(table as TableName);
      if (previous) shareValues(value as Record<string, unknown>, previous);
      this.previous.set(table as TableName, value as Record<string, unknown>);
    }
    try {
      staged.add(value);
    } catch (error) {
      throw new RowRefused((error as Error).message);
    }
    this.rows += 1;
  }

  /** Builds every staged table's trees a step at a time: a caller that must not block pauses between steps. */
  *finish(): Generator<void> {
    for (const contents of this.staged.values()) yield* contents.finish();
  }

  /** Puts every staged table in place of the live one (O(1) each once `finish` has run). */
  commit(): void {
    for (const name of tableNames) (this.store[name] as StoredTable<unknown>).install(this.staged.get(name)!);
  }
}

/**
 * Makes each field of `row` equal to the same field of `previous` that row's value: a string, or an array or
 * object whose members are the same values (an empty list of media, the same callback events). Rows read from
 * outside (JSON lines) hold a fresh copy of every value, though most repeat the row before's (an account sid,
 * a number, a status, a callback URL); shared, a million rows keep one copy, as the live state did, and the
 * copies die before they outlive a young-generation collection. Rows are never changed in place, so sharing
 * is safe. Measured (docs/decisions.md, persistence): the heap after importing 1M calls and 1M messages.
 */
function shareValues(row: Record<string, unknown>, previous: Record<string, unknown>): void {
  for (const key in row) {
    const value = row[key];
    const before = previous[key];
    // Equal strings are `===` whether or not they are one string in memory: assigned either way.
    if (typeof value === "string" ? value === before : value !== before && sameMembers(value, before))
      row[key] = before;
  }
}

/** Two arrays, or two plain objects, with the same members by `===` (not compared deeper). */
function sameMembers(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys)
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key] || !Object.hasOwn(b, key))
      return false;
  return true;
}
