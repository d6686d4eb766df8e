// The store keeps every change atomic, lists in insertion order, and round-trips through snapshots.
import { describe, expect, it } from "vitest";
import { createStore } from "./store.js";
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
});
