// What an account owns across the store, read from the ownership each table declares (domain/store.ts).
import { type Store, type Tables, tableDefinitions } from "./store.js";

type TableName = keyof Tables;
type Definitions = typeof tableDefinitions;

/** Tables whose rows go back to the carrier when their account goes: an engine rule clears each. */
export type ReleasedTable = {
  [K in TableName]: Definitions[K]["owner"] extends { kind: "released" } ? K : never;
}[TableName];

/** A table's rows that belong to the account to delete. */
export interface OwnedRows {
  table: TableName;
  ids: string[];
}

/**
 * Every row the account owns and that goes with it, children before their parents: rows owned directly
 * (through their account index), then rows owned through one of those (participants through their
 * conference, queue members through their queue), and so on.
 */
export function rowsOwnedBy(store: Store, accountSid: string): OwnedRows[] {
  const names = Object.keys(tableDefinitions) as TableName[];
  const found = new Map<TableName, string[]>();
  const idsOf = (name: TableName, rows: unknown[]) => {
    const id = tableDefinitions[name].id as (row: unknown) => string;
    return rows.map(id);
  };
  const ownedIn = (name: TableName): string[] => {
    const known = found.get(name);
    if (known) return known;
    const owner = tableDefinitions[name].owner as Definitions[TableName]["owner"];
    const table = store[name] as unknown as { where(index: string, key: string): unknown[] };
    let ids: string[] = [];
    if (owner.kind === "account") ids = idsOf(name, table.where(owner.index, accountSid));
    if (owner.kind === "parent") {
      const parents = ownedIn(owner.table as TableName);
      ids = parents.flatMap((parent) => idsOf(name, table.where(owner.index, parent)));
    }
    found.set(name, ids);
    return ids;
  };
  const depth = (name: TableName): number => {
    const owner = tableDefinitions[name].owner as Definitions[TableName]["owner"];
    return owner.kind === "parent" ? 1 + depth(owner.table as TableName) : 0;
  };
  return names
    .filter((name) => ["account", "parent"].includes(tableDefinitions[name].owner.kind))
    .sort((a, b) => depth(b) - depth(a))
    .map((name) => ({ table: name, ids: ownedIn(name) }));
}
