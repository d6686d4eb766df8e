// The store keeps every change atomic, lists in insertion order, and round-trips through snapshots.
import { describe, expect, it } from "vitest";
import { createStore } from "./store.js";
import type { TableChange } from "./table.js";
import { deriveTestCredentials } from "./test-credentials.js";

const account = (sid: string, status: "active" | "suspended" = "active") => ({
  sid,
  name: sid,
  status,
  default_tts_voice: "Basic.Kal",
  metadata: {},
  auth_token: "token-token-token-1",
  ...deriveTestCredentials(sid, "token-token-token-1"),
  parent_account_sid: null,
  closed_at: null,
  media_auth: false,
  whatsapp_senders: [],
  created_at: 0,
  updated_at: 0,
});
const sid = (n: number) => `AC${String(n).padStart(32, "0")}`;

describe("store", () => {
  it("rolls back every table when a change throws", () => {
    const store = createStore();
    store.accounts.insert(account(sid(1)));
    store.accounts.insert(account(sid(2)));
    expect(() =>
      store.transact(() => {
        store.accounts.insert(account(sid(3)));
        store.accounts.replace(account(sid(1), "suspended"));
        store.accounts.delete(sid(2));
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(store.accounts.all().map((a) => [a.sid, a.status])).toEqual([
      [sid(1), "active"],
      [sid(2), "active"],
    ]);
    expect(store.accounts.where("status", "suspended")).toEqual([]);
    expect(store.accounts.where("status", "active").map((a) => a.sid)).toEqual([sid(1), sid(2)]);
  });

  it("keeps index lookups in insertion order after updates", () => {
    const store = createStore();
    for (const n of [1, 2, 3]) store.accounts.insert(account(sid(n), "suspended"));
    store.accounts.replace(account(sid(1), "active"));
    store.accounts.replace(account(sid(1), "suspended"));
    expect(store.accounts.where("status", "suspended").map((a) => a.sid)).toEqual([sid(1), sid(2), sid(3)]);
  });

  it("snapshots to plain JSON and restores it, refusing a bad snapshot whole", () => {
    const store = createStore();
    store.accounts.insert(account(sid(1)));
    const snapshot = JSON.parse(JSON.stringify(store.snapshot()));
    const other = createStore();
    other.restore(snapshot);
    expect(other.snapshot()).toEqual(snapshot);
    expect(() => other.restore({ ...snapshot, accounts: [{ sid: "bad" }] })).toThrow();
    expect(other.snapshot()).toEqual(snapshot);
  });
});

describe("store subscribers", () => {
  it("receive each committed transaction as one batch, and nothing from a rolled-back one", () => {
    const store = createStore();
    const batches: unknown[][] = [];
    store.subscribe((batch) => batches.push(batch));
    store.transact(() => {
      store.accounts.insert(account(sid(1)));
      store.accounts.replace(account(sid(1), "suspended"));
    });
    expect(() =>
      store.transact(() => {
        store.accounts.insert(account(sid(2)));
        throw new Error("no");
      }),
    ).toThrow();
    store.accounts.delete(sid(1));
    expect(batches).toEqual([
      [
        { table: "accounts", op: "put", row: account(sid(1)) },
        { table: "accounts", op: "put", row: account(sid(1), "suspended") },
      ],
      [{ table: "accounts", op: "delete", id: sid(1) }],
    ]);
  });

  it("runs the commit hook at the end of a transaction, its changes in the same batch, a throw rolling back both", () => {
    const store = createStore();
    const batches: TableChange[][] = [];
    store.subscribe((batch) => batches.push(batch));
    let runs = 0;
    store.onCommit(() => {
      runs += 1;
      // The hook's own changes do not run it again.
      if (store.accounts.size > 2) store.accounts.delete(store.accounts.oldest()!.sid);
    });
    store.transact(() => {
      store.accounts.insert(account(sid(1)));
      store.accounts.insert(account(sid(2)));
      store.accounts.insert(account(sid(3)));
    });
    expect(runs).toBe(1);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((c) => c.op)).toEqual(["put", "put", "put", "delete"]);
    expect(store.accounts.all().map((a) => a.sid)).toEqual([sid(2), sid(3)]);

    store.onCommit(() => {
      throw new Error("hook failed");
    });
    expect(() => store.transact(() => store.accounts.insert(account(sid(4))))).toThrow("hook failed");
    expect(store.accounts.has(sid(4))).toBe(false);
    expect(batches).toHaveLength(1);
  });

  it("runs the commit hook after a change made outside a transaction once the code that made it has run, in a batch of its own", async () => {
    const store = createStore();
    const batches: TableChange[][] = [];
    store.subscribe((batch) => batches.push(batch));
    let runs = 0;
    store.onCommit(() => {
      runs += 1;
      while (store.accounts.size > 1) store.accounts.delete(store.accounts.oldest()!.sid);
    });
    store.accounts.insert(account(sid(1)));
    store.accounts.insert(account(sid(2)));
    expect(runs).toBe(0);
    await Promise.resolve();
    expect(runs).toBe(1);
    expect(batches.map((batch) => batch.map((c) => c.op))).toEqual([["put"], ["put"], ["delete"]]);
    store.onCommit(null);
    store.accounts.insert(account(sid(3)));
    await Promise.resolve();
    expect(store.accounts.size).toBe(2);
    // Loading and clearing replace the contents without it.
    store.onCommit(() => {
      runs += 1;
    });
    store.clear();
    await Promise.resolve();
    expect(runs).toBe(1);
  });
});
