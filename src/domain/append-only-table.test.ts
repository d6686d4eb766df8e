// The append-only table (the event log) gives the same rows, in the same order, as filtering a plain list, through inserts, oldest-first drops and rollbacks.
import { describe, expect, it } from "vitest";
import { AppendOnlyTable } from "./append-only-table.js";
import { createIdGenerator, serialIn } from "./ids.js";

interface Row {
  sid: string;
  account: string;
  type: string;
}

/** A small deterministic generator, so a failure repeats. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state % n;
  };
}

const accounts = ["AC1", "AC2", "AC3"];
const types = ["created", "sent", "delivered", "charge"];
const definition = {
  name: "rows",
  id: (r: Row) => r.sid,
  indexes: {
    account: (r: Row) => r.account,
    type: (r: Row) => r.type,
    // Rows of one account and type only: a sparse index, absent for the rest.
    charges: (r: Row) => (r.type === "charge" ? r.account : null),
  },
};

function expectSameAsList(table: AppendOnlyTable<Row>, expected: Row[]) {
  expect(table.size).toBe(expected.length);
  expect(table.all()).toEqual(expected);
  expect(table.oldest()).toEqual(expected[0]);
  expect([...table.scan({ reverse: true })]).toEqual([...expected].reverse());
  for (const row of [expected[0], expected.at(-1)]) if (row) expect(table.get(row.sid)).toEqual(row);
  for (const account of accounts) {
    const rows = expected.filter((r) => r.account === account);
    expect(table.where("account", account)).toEqual(rows);
    expect(table.count("account", account)).toBe(rows.length);
    expect(table.findOne("account", account)).toEqual(rows[0]);
    expect(table.latest("account", account)).toEqual(rows.at(-1));
    expect([...table.scan({ index: "account", key: account, reverse: true })]).toEqual([...rows].reverse());
    expect(table.where("charges", account)).toEqual(rows.filter((r) => r.type === "charge"));
  }
  for (const type of types)
    expect(table.where("type", type)).toEqual(expected.filter((r) => r.type === type));
}

describe("append-only table", () => {
  it("gives the same answers as a list through thousands of inserts, oldest-first drops and rollbacks", () => {
    const undo: (() => void)[] = [];
    let recording = false;
    const table = new AppendOnlyTable<Row>(definition, (step) => {
      if (recording) undo.push(step);
    });
    const next = random(5);
    let expected: Row[] = [];
    let minted = 0;
    for (let step = 0; step < 12_000; step++) {
      // A transaction of a few changes, some of them rolled back as a failed one would be.
      recording = next(5) === 0;
      const before = expected;
      for (let change = next(4); change >= 0; change--) {
        const row = { sid: `r${minted++}`, account: accounts[next(3)]!, type: types[next(4)]! };
        table.insert(row);
        expected = [...expected, row];
        // Drops as a retention bound makes them: the oldest, once the table is over its size.
        while (expected.length > 500 || (expected.length > 0 && next(4) === 0)) {
          expect(table.delete(expected[0]!.sid)).toEqual(expected[0]);
          expected = expected.slice(1);
        }
      }
      if (recording) {
        for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
        undo.length = 0;
        recording = false;
        expected = before;
      }
      if (step % 600 === 0) expectSameAsList(table, expected);
    }
    // Enough rows went through for the queues to cut their dropped fronts many times.
    expect(minted).toBeGreaterThan(10_000);
    expect(expected.length).toBeLessThanOrEqual(500);
    expectSameAsList(table, expected);
  });

  it("rolls back a long run of drops across the queue cutting its dropped front", () => {
    const undo: (() => void)[] = [];
    let recording = false;
    const table = new AppendOnlyTable<Row>(definition, (step) => {
      if (recording) undo.push(step);
    });
    const rows = Array.from({ length: 3000 }, (_, n) => ({ sid: `r${n}`, account: "AC1", type: "created" }));
    for (const row of rows) table.insert(row);
    // One transaction drops 2,000 rows (the queues cut their front on the way) and then fails.
    recording = true;
    for (let n = 0; n < 2000; n++) table.delete(`r${n}`);
    expectSameAsList(table, rows.slice(2000));
    for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
    recording = false;
    expectSameAsList(table, rows);
    // And it goes on: newer rows after the restored ones, the restored ones dropped first.
    table.insert({ sid: "r3000", account: "AC1", type: "created" });
    for (let n = 0; n < 2999; n++) table.delete(`r${n}`);
    expectSameAsList(table, [rows[2999]!, { sid: "r3000", account: "AC1", type: "created" }]);
  });

  it("walks from a page token, forwards and backwards, in the table and in an index", () => {
    const table = new AppendOnlyTable<Row>(definition, () => {});
    for (let n = 0; n < 3000; n++)
      table.insert({ sid: `r${n}`, account: "AC1", type: n % 2 ? "odd" : "even" });
    for (let n = 0; n < 2000; n++) table.delete(`r${n}`);
    const evenAfter = (sid: string, reverse: boolean) =>
      [...table.scan({ index: "type", key: "even", after: sid, reverse })].slice(0, 3).map((r) => r.sid);
    expect(evenAfter("r2004", false)).toEqual(["r2006", "r2008", "r2010"]);
    expect(evenAfter("r2005", false)).toEqual(["r2006", "r2008", "r2010"]);
    expect(evenAfter("r2990", true)).toEqual(["r2988", "r2986", "r2984"]);
    expect(evenAfter("r2002", true)).toEqual(["r2000"]);
    expect([...table.scan({ after: "r2997" })].map((r) => r.sid)).toEqual(["r2998", "r2999"]);
    expect([...table.scan({ after: "r2002", reverse: true })].map((r) => r.sid)).toEqual(["r2001", "r2000"]);
    // A token whose row is gone starts from the beginning, as in every table.
    expect([...table.scan({ after: "r5" })][0]!.sid).toBe("r2000");
  });

  it("refuses changes other than appending and dropping the oldest, and a load with a repeated id", () => {
    const table = new AppendOnlyTable<Row>(definition, () => {});
    const rows = [0, 1, 2].map((n) => ({ sid: `r${n}`, account: "AC1", type: "created" }));
    table.load(rows);
    expect(() => table.delete("r1")).toThrow(/oldest first/);
    expect(() => table.replace({ ...rows[0]!, type: "sent" })).toThrow(/never changed/);
    expect(() => table.insert(rows[2]!)).toThrow(/duplicate id r2/);
    expect(table.delete("nope")).toBeUndefined();
    expect(() => table.load([rows[0]!, rows[0]!])).toThrow(/duplicate id r0/);
    // Nothing above changed the table: the repeated id still finds its row.
    expect(table.all()).toEqual(rows);
    expect(table.where("type", "created")).toEqual(rows);
    expect(table.get("r2")).toBe(rows[2]);
    expect(table.size).toBe(3);
    expect(new AppendOnlyTable<Row>(definition, () => {}).delete("r0")).toBeUndefined();
  });

  it("keeps frozen rows as they were while rows come and go", () => {
    const table = new AppendOnlyTable<Row>(definition, () => {});
    for (let n = 0; n < 100; n++) table.insert({ sid: `r${n}`, account: "AC1", type: "created" });
    const frozen = table.frozenRows();
    for (let n = 0; n < 50; n++) table.delete(`r${n}`);
    table.insert({ sid: "r100", account: "AC1", type: "created" });
    expect([...frozen].map((r) => r.sid)).toEqual(Array.from({ length: 100 }, (_, n) => `r${n}`));
  });

  it("built by contents and install gives the same table as inserting each row", () => {
    const next = random(3);
    const rows = Array.from({ length: 2500 }, (_, n) => ({
      sid: `r${n}`,
      account: accounts[next(3)]!,
      type: types[next(4)]!,
    }));
    const built = new AppendOnlyTable<Row>(definition, () => {});
    const contents = built.contents();
    for (const row of rows) contents.add(row);
    expect(contents.size).toBe(rows.length);
    built.install(contents);
    expectSameAsList(built, rows);
    // It goes on as a live table: new rows after the loaded ones, the loaded ones dropped first.
    built.insert({ sid: "new", account: "AC2", type: "sent" });
    for (let n = 0; n < 10; n++) built.delete(`r${n}`);
    expectSameAsList(built, [...rows.slice(10), { sid: "new", account: "AC2", type: "sent" }]);
  });

  it("finds rows whose ids carry their position, beside rows loaded with ids that carry another", () => {
    const ids = createIdGenerator(9);
    const numbered = { ...definition, positionIn: (sid: string) => serialIn(sid, 34) };
    const table = new AppendOnlyTable<Row>(numbered, () => {});
    // Loaded rows whose ids carry positions they no longer have (a snapshot of a longer log), and one made elsewhere.
    const loaded = [40, 41, 0].map((n) => ({
      sid: ids.mintNumbered("EV", n),
      account: "AC1",
      type: "created",
    }));
    const rows: Row[] = [...loaded, { sid: "r-old", account: "AC2", type: "sent" }];
    table.load(rows);
    for (let n = 0; n < 50; n++) {
      const row = {
        sid: ids.mintNumbered("EV", table.nextPosition),
        account: accounts[n % 3]!,
        type: "sent",
      };
      rows.push(table.insert(row));
    }
    expectSameAsList(table, rows);
    for (const row of rows) expect(table.get(row.sid)).toBe(row);
    // An id that carries the position of another row, or of none, is not found.
    expect(table.get(ids.mintNumbered("EV", 10))).toBeUndefined();
    expect(table.get(ids.mintNumbered("EV", 500))).toBeUndefined();
    expect(() => table.insert(rows[7]!)).toThrow(/duplicate/);
    expect(() => table.insert(loaded[2]!)).toThrow(/duplicate/);
    for (let n = 0; n < 6; n++) expect(table.delete(rows[n]!.sid)).toBe(rows[n]);
    expect(table.get(rows[0]!.sid)).toBeUndefined();
    expectSameAsList(table, rows.slice(6));
  });

  it("undoes inserts and drops of rows whose ids carry their position", () => {
    const ids = createIdGenerator(4);
    const undo: (() => void)[] = [];
    const table = new AppendOnlyTable<Row>(
      { ...definition, positionIn: (sid) => serialIn(sid, 34) },
      (step) => undo.push(step),
    );
    const mint = () =>
      table.insert({ sid: ids.mintNumbered("EV", table.nextPosition), account: "AC1", type: "sent" });
    const rows = Array.from({ length: 5 }, mint);
    undo.length = 0;
    table.delete(rows[0]!.sid);
    const extra = mint();
    for (const step of undo.reverse()) step();
    expectSameAsList(table, rows);
    expect(table.get(extra.sid)).toBeUndefined();
    // The position taken back goes to the next row, under a new id.
    const next = mint();
    expect(next.sid).not.toBe(extra.sid);
    expect(table.get(next.sid)).toBe(next);
  });
});
