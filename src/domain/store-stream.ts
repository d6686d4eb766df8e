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
