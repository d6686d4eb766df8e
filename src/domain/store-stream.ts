// The store as a stream of rows: a point-in-time capture read lazily, and a loader that stages rows and swaps them in whole.
import { type Store, type StoreSnapshot, tableDefinitions, tableNames, tableRowSchemas } from "./store.js";
import { Table } from "./table.js";

export type TableName = keyof StoreSnapshot;

/** Every table's rows as they were when captured, in table order; later changes do not show. */
export type StoreCapture = [TableName, Iterable<unknown>][];

/** A row the loader refused, with why. */
export class RowRefused extends Error {}

/**
 * Builds a whole new state beside the live one, row by row (so reading a large snapshot never holds it as
 * one string), then swaps every table in at once: until `commit`, the live state is untouched. Rows are
 * gathered per table and each table is built once at the end, its indexes bottom up from sorted input.
 */
export class StoreLoader {
  private readonly staged = new Map<TableName, unknown[]>();
  /** Ids seen per table, to refuse a repeated one at its line (input from outside only). */
  private readonly seen = new Map<TableName, Set<string>>();
  rows = 0;

  constructor(
    private readonly store: Store,
    /** Check each row against its table's schema (input from outside); rows from the sandbox's own files skip it. */
    private readonly validate: boolean,
  ) {
    for (const name of tableNames) {
      this.staged.set(name, []);
      if (validate) this.seen.set(name, new Set());
    }
  }

  /** Adds one row to `table`; throws RowRefused saying why when the table or row is not valid. */
  add(table: string, row: unknown): void {
    const staged = this.staged.get(table as TableName);
    if (!staged)
      throw new RowRefused(`unknown table ${JSON.stringify(table)} (tables: ${tableNames.join(", ")})`);
    let value = row;
    if (this.validate) {
      const name = table as TableName;
      const result = tableRowSchemas[name].safeParse(row);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        throw new RowRefused(`not a valid ${table} row: ${issue.path.join(".") || "(row)"} ${issue.message}`);
      }
      value = result.data;
      const id = (tableDefinitions[name].id as (row: unknown) => string)(value);
      const seen = this.seen.get(name)!;
      if (seen.has(id)) throw new RowRefused(`duplicate id ${id} in ${table}`);
      seen.add(id);
    }
    staged.push(value);
    this.rows += 1;
  }

  /**
   * Builds every table from its rows, then puts each in place of the live one (O(1) each). A table that
   * cannot be built (a repeated id in an unchecked file) throws before any live table is touched.
   */
  commit(): void {
    const built = tableNames.map((name) => {
      const table = new Table(tableDefinitions[name] as never, () => undefined);
      table.load(this.staged.get(name)!);
      return [name, table] as const;
    });
    this.staged.clear();
    this.seen.clear();
    for (const [name, table] of built) (this.store[name] as Table<unknown>).adopt(table);
  }
}
