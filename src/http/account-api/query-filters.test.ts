// Twilio list filters: which are given, what they match, and the order they are echoed into page URIs.
import { describe, expect, it } from "vitest";
import { equals, queryFilters } from "./query-filters.js";

interface Row {
  to: string;
  muted: boolean;
}
const rows: Row[] = [
  { to: "+1", muted: false },
  { to: "+2", muted: true },
];
const declared = { To: equals((r: Row) => r.to), Muted: equals((r: Row) => r.muted) };

describe("account list query filters", () => {
  it("echoes the given filters in their declared order, whatever order the query has", () => {
    const given = queryFilters<Row>({ Muted: true, To: "+2", PageSize: 50 }, declared);
    expect(given.echo).toEqual([
      ["To", "+2"],
      ["Muted", "true"],
    ]);
    expect(rows.filter(given.matches)).toEqual([rows[1]]);
  });
  it("takes false as a filter and an empty string as none", () => {
    const given = queryFilters<Row>({ To: "", Muted: false }, declared);
    expect(given.echo).toEqual([["Muted", "false"]]);
    expect(rows.filter(given.matches)).toEqual([rows[0]]);
  });
});
