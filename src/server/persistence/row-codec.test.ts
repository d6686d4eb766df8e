// Compact row lines read back as the same rows, JSON for JSON, whatever their shapes, and refuse lines they cannot place.
import { describe, expect, it } from "vitest";
import { RowDecoder, RowEncoder, RowLineError } from "./row-codec.js";

type Row = Record<string, unknown>;

/** Encodes each table's rows, reads the text back line by line, and returns the rows read per table. */
function roundTrip(tables: [string, Row[]][]): [string, Row[]][] {
  const encoder = new RowEncoder();
  let text = "";
  for (const [table, rows] of tables) {
    text += encoder.startTable(table);
    for (const row of rows) text += encoder.encode(row);
  }
  const decoder = new RowDecoder();
  const read = new Map<string, Row[]>();
  for (const line of text.trimEnd().split("\n")) {
    const row = decoder.line(JSON.parse(line));
    if (row === undefined) {
      if (!read.has(decoder.currentTable)) read.set(decoder.currentTable, []);
      continue;
    }
    read.get(decoder.currentTable)!.push(row);
  }
  return [...read];
}

const callbackEvents = ["completed"];
const call = (n: number, extra: Row = {}): Row => ({
  sid: `CA${n}`,
  account_sid: "AC1",
  status: n % 3 ? "completed" : "busy",
  to: `+1555${n % 7}`,
  price: null,
  events: callbackEvents,
  created_at: 1_767_225_600_000 + n,
  ...extra,
});

describe("compact row lines", () => {
  it("read back the same rows, JSON for JSON, through changing shapes, undefined values and nested events", () => {
    const calls = [
      call(1),
      call(2),
      call(3, { annotation: "x" }),
      call(4),
      { ...call(5), status: undefined },
      { to: "+1", sid: "CA6", account_sid: "AC1" },
      call(7, { events: ["a", "b"], price: "0.01", nested: { a: [1, { b: null }] } }),
      call(8, { body: 'quotes " and \\ and \n newlines and ☎ 😀' }),
    ];
    const events = [
      {
        sid: "EV1",
        type: "phone_call.created",
        resource_type: "phone_call",
        resource_sid: "CA1",
        data: calls[0],
        at: 1,
      },
      {
        sid: "EV2",
        type: "phone_call.busy",
        resource_type: "phone_call",
        resource_sid: "CA1",
        data: calls[0],
        at: 2,
      },
      {
        sid: "EV3",
        type: "message.queued",
        resource_type: "message",
        resource_sid: "SM1",
        data: { sid: "SM1" },
        at: 3,
      },
      {
        sid: "EV4",
        type: "phone_call.completed",
        resource_type: "phone_call",
        resource_sid: "CA2",
        data: calls[1],
        at: 4,
      },
      {
        sid: "EV5",
        type: "account.updated",
        resource_type: "account",
        resource_sid: "AC1",
        data: { sid: "AC1", name: "A" },
        at: 5,
      },
    ];
    const tables: [string, Row[]][] = [
      ["accounts", [{ sid: "AC1", name: "A", metadata: {} }]],
      ["calls", calls],
      ["events", events],
      ["empty", []],
    ];
    const read = roundTrip(tables);
    expect(JSON.stringify(read)).toBe(JSON.stringify(tables));
    const readEvents = read.find(([name]) => name === "events")![1];
    // Two events about an unchanged resource share one row, as they did before they were written.
    expect(readEvents[1]!.data).toBe(readEvents[0]!.data);
    // Unchanged values are shared with the row before rather than copied.
    const readCalls = read.find(([name]) => name === "calls")![1];
    expect(readCalls[1]!.events).toBe(readCalls[0]!.events);
  });

  it("writes an array or object equal to the row before's once, even when each row has its own (rows read from an import)", () => {
    const calls = [
      call(1, { events: ["completed"], metadata: { a: 1 } }),
      call(2, { events: ["completed"], metadata: { a: 1 } }),
      call(3, { events: ["completed", "busy"], metadata: { a: 1 } }),
      call(4, { events: ["completed"], metadata: { a: 2 } }),
      call(5, { events: ["completed"], metadata: { a: 2 } }),
    ];
    const encoder = new RowEncoder();
    const lines = [encoder.startTable("calls"), ...calls.map((row) => encoder.encode(row))];
    // The second row's line holds what changed (sid, to, status, created_at), not its equal arrays.
    expect(lines[2]).not.toContain("completed");
    expect(lines[2]).not.toContain('"a"');
    const read = roundTrip([["calls", calls]]);
    expect(JSON.stringify(read)).toBe(JSON.stringify([["calls", calls]]));
    const rows = read[0]![1];
    expect(rows[1]!.events).toBe(rows[0]!.events);
    expect(rows[1]!.metadata).toBe(rows[0]!.metadata);
    expect(rows[4]!.metadata).toBe(rows[3]!.metadata);
    expect(rows[3]!.events).toEqual(["completed"]);
  });

  it("builds a row with a __proto__ key as an own property, not a prototype", () => {
    const row = JSON.parse('{"sid":"X1","__proto__":{"polluted":true}}') as Row;
    const [[, [read]]] = roundTrip([["metadata", [row]]]) as [[string, [Row]]];
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(JSON.stringify(read)).toBe(JSON.stringify(row));
  });

  it("refuses a row before its keys, a column out of range and a change with no row before it", () => {
    const decoder = new RowDecoder();
    decoder.line({ table: "calls" });
    expect(() => decoder.line([0, "CA1"])).toThrow(RowLineError);
    decoder.line({ keys: ["sid", "to"] });
    expect(() => decoder.line([[1], "+1"])).toThrow(/no row before/);
    expect(() => decoder.line([0, "CA1"])).toThrow(/1 values for 2 keys/);
    decoder.line([0, "CA1", "+1"]);
    expect(() => decoder.line([[5], "x"])).toThrow(/no column 5/);
    expect(() => decoder.line("text")).toThrow(RowLineError);
  });
});
