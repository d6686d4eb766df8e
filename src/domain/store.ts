// The sandbox's state: indexed tables, atomic multi-table changes, and plain-JSON snapshots.
import { z } from "zod";
import { type Account, accountSchema } from "./account.js";
import { type ApiKey, apiKeySchema } from "./api-key.js";
import { eventSchema, type SandboxEvent } from "./event.js";
import { type PhoneNumber, phoneNumberSchema } from "./phone-number.js";
import { type Rate, rateSchema } from "./rate.js";
import { Table, type TableDefinition } from "./table.js";

export const storeSnapshotSchema = z.object({
  accounts: z.array(accountSchema),
  phoneNumbers: z.array(phoneNumberSchema),
  apiKeys: z.array(apiKeySchema),
  rates: z.array(rateSchema),
  events: z.array(eventSchema),
});
export type StoreSnapshot = z.infer<typeof storeSnapshotSchema>;

const definitions = {
  accounts: { name: "accounts", id: (a: Account) => a.sid, indexes: { status: (a: Account) => a.status } },
  phoneNumbers: {
    name: "phoneNumbers",
    id: (n: PhoneNumber) => n.sid,
    indexes: {
      number: (n: PhoneNumber) => n.number,
      account: (n: PhoneNumber) => n.account_sid,
      country: (n: PhoneNumber) => n.country,
      status: (n: PhoneNumber) => n.status,
    },
  },
  apiKeys: {
    name: "apiKeys",
    id: (k: ApiKey) => k.sid,
    indexes: { account: (k: ApiKey) => k.account_sid, key: (k: ApiKey) => k.key },
  },
  rates: { name: "rates", id: (r: Rate) => r.sid, indexes: { category: (r: Rate) => r.category } },
  events: {
    name: "events",
    id: (e: SandboxEvent) => e.sid,
    indexes: { account: (e: SandboxEvent) => e.account_sid, type: (e: SandboxEvent) => e.type },
  },
} satisfies { [K in keyof StoreSnapshot]: TableDefinition<StoreSnapshot[K][number]> };

export type Tables = { [K in keyof StoreSnapshot]: Table<StoreSnapshot[K][number]> };

export interface Store extends Tables {
  /**
   * Runs `change` as one atomic change: if it throws, every table is put back as it was.
   * Nested calls join the outer change.
   */
  transact<R>(change: () => R): R;
  snapshot(): StoreSnapshot;
  /** Replaces all contents; the snapshot is validated first, so a bad one changes nothing. */
  restore(snapshot: unknown): void;
}

export function createStore(): Store {
  let undoLog: (() => void)[] | null = null;
  const recordUndo = (undo: () => void) => {
    if (undoLog) undoLog.push(undo);
  };
  const tables = Object.fromEntries(
    Object.entries(definitions).map(([key, definition]) => [
      key,
      new Table(definition as TableDefinition<unknown>, recordUndo),
    ]),
  ) as unknown as Tables;
  const names = Object.keys(definitions) as (keyof StoreSnapshot)[];

  return {
    ...tables,
    transact(change) {
      if (undoLog) return change();
      const log: (() => void)[] = [];
      undoLog = log;
      try {
        const result = change();
        undoLog = null;
        return result;
      } catch (error) {
        undoLog = null;
        for (let i = log.length - 1; i >= 0; i--) log[i]!();
        throw error;
      }
    },
    snapshot() {
      return Object.fromEntries(
        names.map((name) => [name, structuredClone(tables[name].all())]),
      ) as StoreSnapshot;
    },
    restore(snapshot) {
      const parsed = storeSnapshotSchema.parse(snapshot);
      for (const name of names) (tables[name] as Table<unknown>).load(parsed[name]);
    },
  };
}
