// The sorted indexes give the same rows, in the same order, as filtering a scan of the table, through inserts, updates, deletes and rollbacks.
import { describe, expect, it } from "vitest";
import { createStore } from "./store.js";
import { compoundKey, Table } from "./table.js";

interface Row {
  sid: string;
  account: string;
  status: string;
}

/** A small deterministic generator, so a failure repeats. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
}

const keysOf = {
  account: (r: Row) => r.account,
  status: (r: Row) => r.status,
  accountStatus: (r: Row) => compoundKey(r.account, r.status),
};

function expectIndexesMatchScan(table: Table<Row>, accounts: string[], statuses: string[]) {
  const all = table.all();
  for (const account of accounts) {
    for (const status of statuses) {
      const key = compoundKey(account, status)!;
      const scanned = all.filter((r) => keysOf.accountStatus(r) === key);
      expect(table.where("accountStatus", key)).toEqual(scanned);
      expect(table.count("accountStatus", key)).toBe(scanned.length);
      expect([...table.scan({ index: "accountStatus", key, reverse: true })]).toEqual([...scanned].reverse());
      expect(table.latest("accountStatus", key)).toEqual(scanned.at(-1));
      expect(table.findOne("accountStatus", key)).toEqual(scanned[0]);
    }
  }
  for (const status of statuses)
    expect(table.where("status", status)).toEqual(all.filter((r) => r.status === status));
}

describe("table indexes", () => {
  it("give the same answers as a scan through thousands of random changes and rollbacks", () => {
    const undo: (() => void)[] = [];
    let recording = false;
    const table = new Table<Row>({ name: "rows", id: (r) => r.sid, indexes: keysOf }, (step) => {
      if (recording) undo.push(step);
    });
    const next = random(7);
    const accounts = ["AC1", "AC2", "AC3"];
    const statuses = ["queued", "ringing", "completed", "busy"];
    let minted = 0;
    for (let step = 0; step < 6000; step++) {
      const ids = table.size > 0 ? table.all().map((r) => r.sid) : [];
      const pick = () => ids[next(ids.length)]!;
      const choice = next(10);
      // Some changes are rolled back, as a failed transaction would.
      recording = next(5) === 0;
      if (choice < 5 || ids.length === 0) {
        table.insert({ sid: `r${minted++}`, account: accounts[next(3)]!, status: statuses[next(4)]! });
      } else if (choice < 9) {
        table.replace({ ...table.get(pick())!, status: statuses[next(4)]! });
      } else {
        table.delete(pick());
      }
      if (recording) {
        for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
        undo.length = 0;
        recording = false;
      }
      if (step % 500 === 0) expectIndexesMatchScan(table, accounts, statuses);
    }
    // Large buckets live in a tree, small ones in an array: both were exercised.
    expect(table.count("status", "queued")).toBeGreaterThan(256);
    expectIndexesMatchScan(table, accounts, statuses);
  });

  it("built in one pass by load gives the same answers as row-by-row inserts, and through changes after", () => {
    const next = random(11);
    const accounts = ["AC1", "AC2", "AC3"];
    const statuses = ["queued", "ringing", "completed", "busy"];
    const rows: Row[] = [];
    for (let n = 0; n < 3000; n++)
      rows.push({ sid: `r${n}`, account: accounts[next(3)]!, status: statuses[next(4)]! });
    const definition = { name: "rows", id: (r: Row) => r.sid, indexes: keysOf };
    const loaded = new Table<Row>(definition, () => {});
    loaded.load(rows);
    const inserted = new Table<Row>(definition, () => {});
    for (const row of rows) inserted.insert(row);
    // Filed step by step as rows arrive (an import while serving): the same table again.
    const stepwise = new Table<Row>(definition, () => {});
    const contents = stepwise.contents("stepwise");
    for (const row of rows) contents.add(row);
    stepwise.install(contents);
    expectIndexesMatchScan(stepwise, accounts, statuses);
    expect(stepwise.all()).toEqual(inserted.all());
    // Buckets past 256 positions keep them in a typed array, smaller ones in a plain array: both answer alike.
    expect(loaded.count("status", "queued")).toBeGreaterThan(256);
    expect(loaded.count("accountStatus", compoundKey("AC1", "busy")!)).toBeLessThan(256);
    expectIndexesMatchScan(loaded, accounts, statuses);
    expect(loaded.all()).toEqual(inserted.all());
    for (let step = 0; step < 2000; step++) {
      const sid = `r${next(3000 + step)}`;
      const choice = next(3);
      for (const table of [loaded, inserted]) {
        if (choice === 0 || !table.has(sid))
          table.insert({ sid: `n${step}`, account: "AC2", status: "queued" });
        else if (choice === 1) table.replace({ ...table.get(sid)!, status: statuses[step % 4]! });
        else table.delete(sid);
      }
    }
    expectIndexesMatchScan(loaded, accounts, statuses);
    expect(loaded.all()).toEqual(inserted.all());
    expect([...loaded.scan({ index: "status", key: "busy", after: "r100" })]).toEqual([
      ...inserted.scan({ index: "status", key: "busy", after: "r100" }),
    ]);
    expect(() => loaded.load([rows[0]!, rows[0]!])).toThrow(/duplicate id r0/);
    // A refused load leaves the table as it was.
    expect(loaded.all()).toEqual(inserted.all());
  });

  it("walks lazily from a page token, forwards and backwards", () => {
    const table = new Table<Row>({ name: "rows", id: (r) => r.sid, indexes: keysOf }, () => {});
    for (let n = 0; n < 600; n++)
      table.insert({ sid: `r${n}`, account: "AC1", status: n % 2 ? "odd" : "even" });
    const evenAfter = (sid: string, reverse: boolean) =>
      [...table.scan({ index: "status", key: "even", after: sid, reverse })].slice(0, 3).map((r) => r.sid);
    expect(evenAfter("r4", false)).toEqual(["r6", "r8", "r10"]);
    expect(evenAfter("r5", false)).toEqual(["r6", "r8", "r10"]);
    expect(evenAfter("r590", true)).toEqual(["r588", "r586", "r584"]);
    expect([...table.scan({ after: "r597" })].map((r) => r.sid)).toEqual(["r598", "r599"]);
    expect([...table.scan({ after: "r2", reverse: true })].map((r) => r.sid)).toEqual(["r1", "r0"]);
  });

  it("keeps a deleted row's place when the delete is rolled back", () => {
    const store = createStore();
    const ledger = store.ledger;
    const entry = (n: number) => ({
      sid: `BT${String(n).padStart(32, "0")}`,
      account_sid: `AC${"1".padStart(32, "0")}`,
      kind: "top_up" as const,
      category: "voice",
      amount_cents: 1,
      balance_cents: n,
      description: null,
      resource_type: null,
      resource_sid: null,
      created_at: n,
    });
    for (let n = 1; n <= 3; n++) ledger.insert(entry(n));
    expect(() =>
      store.transact(() => {
        ledger.delete(entry(2).sid);
        throw new Error("undo");
      }),
    ).toThrow("undo");
    expect(ledger.all().map((e) => e.balance_cents)).toEqual([1, 2, 3]);
    expect(ledger.latest("account", entry(1).account_sid)?.balance_cents).toBe(3);
  });

  it("left for after a restart, gives the same answers as a table built by inserts through changes, rollbacks and reads made while it is filed", () => {
    // The generator's low bits repeat with a short period: take each choice from its value modulo a prime.
    const mixed = random(13);
    const next = (n: number) => mixed(1_000_003) % n;
    const accounts = ["AC1", "AC2", "AC3"];
    const statuses = ["queued", "ringing", "completed", "busy"];
    const definition = { name: "rows", id: (r: Row) => r.sid, indexes: keysOf };
    const undo: (() => void)[] = [];
    let recording = false;
    const deferred = new Table<Row>(definition, (step) => {
      if (recording) undo.push(step);
    });
    const inserted = new Table<Row>(definition, () => {});
    const contents = deferred.contents("deferred");
    for (let n = 0; n < 3000; n++) {
      const row = { sid: `r${n}`, account: accounts[next(3)]!, status: statuses[next(4)]! };
      contents.add(row);
      inserted.insert(row);
    }
    deferred.install(contents);
    expect(deferred.indexesPending).toBe(true);
    // 97 rows a step with no time bound, so the steps and the changes between them interleave the same way on any machine.
    const steps = deferred.buildIndexes(97, Number.POSITIVE_INFINITY);
    let minted = 0;
    for (let step = 0; deferred.indexesPending || step < 200; step++) {
      // The same change to both tables; some are rolled back on the deferred one, as a failed transaction would.
      const ids = inserted.all().map((r) => r.sid);
      const sid = ids[next(ids.length)]!;
      const choice = next(3);
      const status = statuses[next(4)]!;
      recording = next(4) === 0;
      const change = (table: Table<Row>) => {
        if (choice === 0) table.insert({ sid: `n${minted}`, account: accounts[next(3)]!, status });
        else if (choice === 1) table.replace({ ...table.get(sid)!, status });
        else table.delete(sid);
      };
      change(deferred);
      if (recording) {
        for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
        undo.length = 0;
        recording = false;
      } else {
        // Replayed from the same state of the generator: the same row goes to the table built by inserts.
        if (choice === 0) inserted.insert(deferred.get(`n${minted}`)!);
        else if (choice === 1) inserted.replace(deferred.get(sid)!);
        else inserted.delete(sid);
      }
      if (choice === 0) minted += 1;
      steps.next();
      // A read of an index in the middle of the filing finishes that index at once, and is right.
      if (step === 20) expect(deferred.where("status", "busy")).toEqual(inserted.where("status", "busy"));
    }
    expect(deferred.all()).toEqual(inserted.all());
    expectIndexesMatchScan(deferred, accounts, statuses);
    for (const account of accounts)
      expect(deferred.where("account", account)).toEqual(inserted.where("account", account));
  });

  it("left for after a restart, files them in steps that end at their time bound, and finishes them whole", () => {
    const definition = { name: "rows", id: (r: Row) => r.sid, indexes: keysOf };
    const accounts = ["AC1", "AC2"];
    const statuses = ["queued", "completed", "busy"];
    const filedIn = (stepMs: number) => {
      const table = new Table<Row>(definition, () => {});
      const contents = table.contents("deferred");
      for (let n = 0; n < 200; n++)
        contents.add({ sid: `r${n}`, account: accounts[n % 2]!, status: statuses[n % 3]! });
      table.install(contents);
      let steps = 0;
      for (const _step of table.buildIndexes(2_000, stepMs)) steps += 1;
      expect(table.indexesPending).toBe(false);
      expectIndexesMatchScan(table, accounts, statuses);
      return steps;
    };
    // Unbounded, each index is one step of all 200 rows; with a bound already passed, a step ends at the first
    // reading of the clock, after 32 rows: 7 steps an index.
    expect(filedIn(Number.POSITIVE_INFINITY)).toBe(3);
    expect(filedIn(-1)).toBe(3 * Math.ceil(200 / 32));
  });
});
