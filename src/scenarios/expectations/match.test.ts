// Partial matching rules: named fields only, scalars as text, null as absent, lists as ordered subsequences.
import { describe, expect, it } from "vitest";
import { closest, matchInOrder, mismatches, project, SidRef } from "./match.js";

describe("mismatches", () => {
  it("compares only the fields the expectation names", () => {
    expect(mismatches({ status: "completed" }, { status: "completed", duration: 4 })).toEqual([]);
    expect(mismatches({ params: { A: "1" } }, { params: { A: "2", B: "3" } })).toEqual([
      { path: "params.A", expected: "1", actual: "2" },
    ]);
  });

  it("compares scalars as text, and null as absent", () => {
    expect(mismatches({ duration: 12 }, { duration: "12" })).toEqual([]);
    expect(mismatches({ Digits: null }, {})).toEqual([]);
    expect(mismatches({ Digits: null }, { Digits: "1" })).toHaveLength(1);
    expect(mismatches({ price: "1" }, { price: null })).toHaveLength(1);
  });

  it("present is any value but null or missing (an empty one too); absent is null or missing", () => {
    expect(mismatches({ RecordingUrl: "present" }, { RecordingUrl: "https://x/RE1" })).toEqual([]);
    expect(mismatches({ ForwardedFrom: "present" }, { ForwardedFrom: "" })).toEqual([]);
    expect(mismatches({ RecordingUrl: "present" }, {})).toEqual([
      { path: "RecordingUrl", expected: "present", actual: undefined },
    ]);
    expect(mismatches({ ErrorCode: "absent" }, {})).toEqual([]);
    expect(mismatches({ ErrorCode: "absent" }, { ErrorCode: null })).toEqual([]);
    expect(mismatches({ ErrorCode: "absent" }, { ErrorCode: "11200" })).toHaveLength(1);
  });

  it("a sid reference matches its sid, and nothing when it stands for none", () => {
    expect(mismatches({ DialCallSid: new SidRef("callee", "CA1") }, { DialCallSid: "CA1" })).toEqual([]);
    expect(mismatches({ DialCallSid: new SidRef("callee", "CA1") }, { DialCallSid: "CA2" })).toHaveLength(1);
    expect(mismatches({ DialCallSid: new SidRef("callee", null) }, {})).toHaveLength(1);
    expect(JSON.stringify(new SidRef("callee", null))).toBe('{"sid_of":"callee","sid":null}');
  });

  it("compares arrays element by element, lengths included", () => {
    expect(mismatches({ s: [{ a: 1 }] }, { s: [{ a: 1, b: 2 }] })).toEqual([]);
    expect(mismatches({ s: [{ a: 1 }] }, { s: [{ a: 1 }, { a: 2 }] })).toHaveLength(1);
    expect(mismatches({ s: [{ a: 1 }, { a: 3 }] }, { s: [{ a: 1 }, { a: 2 }] })[0]!.path).toBe("s[1].a");
  });
});

describe("matchInOrder", () => {
  const eq = (e: number, a: number) => e === a;
  it("finds each entry after the previous match, allowing others between", () => {
    expect(matchInOrder([1, 3], [1, 2, 3], eq)).toEqual({ ok: true, indexes: [0, 2] });
  });
  it("reports the first entry not found and where its search began", () => {
    expect(matchInOrder([3, 1], [1, 2, 3], eq)).toEqual({ ok: false, missing: 1, from: 3, indexes: [2] });
  });
});

describe("closest and project", () => {
  it("picks the candidates with the fewest differences, in their original order", () => {
    const candidates = [
      { a: 1, b: 1 },
      { a: 2, b: 2 },
      { a: 1, b: 2 },
    ];
    expect(closest({ a: 1, b: 2 }, candidates, 2)).toEqual([
      { a: 1, b: 1 },
      { a: 1, b: 2 },
    ]);
  });
  it("cuts a record down to the compared fields", () => {
    expect(project({ a: 1, b: { c: 2, d: 3 }, e: [{ f: 1, g: 2 }] }, { b: { c: 0 }, e: [{ f: 0 }] })).toEqual(
      {
        b: { c: 2 },
        e: [{ f: 1 }],
      },
    );
  });
});
