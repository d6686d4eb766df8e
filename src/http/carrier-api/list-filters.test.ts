// Carrier list filters: the index picked for the first scan, equality and own tests, the created-at range.
import { describe, expect, it } from "vitest";
import { Table } from "../../domain/table.js";
import { type ListFilters, listPage } from "./list-filters.js";

interface Row {
  sid: string;
  account: string;
  kind: string;
  number: string;
  created_at: number;
}

const day = Date.parse("2026-01-31T00:00:00Z");
const rows: Row[] = [
  { sid: "r1", account: "AC1", kind: "a", number: "+14155550100", created_at: day - 1 },
  { sid: "r2", account: "AC1", kind: "b", number: "+14155550101", created_at: day },
  { sid: "r3", account: "AC2", kind: "a", number: "+442071234567", created_at: day + 86_400_000 },
];

function table(): { table: Table<Row>; scans: string[] } {
  const scans: string[] = [];
  const t = new Table<Row>(
    { name: "rows", id: (r) => r.sid, indexes: { account: (r) => r.account, kind: (r) => r.kind } },
    () => {},
  );
  for (const row of rows) t.insert(row);
  const scan = t.scan.bind(t);
  t.scan = (options = {}) => {
    if (options.index !== undefined) scans.push(`${options.index}=${options.key}`);
    return scan(options);
  };
  return { table: t, scans };
}

const filters: ListFilters<Row> = {
  indexes: { account: ["filter[account_id]"], kind: ["filter[kind]"] },
  equal: { "filter[account_id]": (r) => r.account, "filter[kind]": (r) => r.kind },
  match: { "filter[number]": (r, digits) => r.number.includes(digits) },
  createdAt: (r) => r.created_at,
};

const sids = (list: Row[]) => list.map((r) => r.sid);
const listRecords = (t: Table<Row>, query: Record<string, string>, f: ListFilters<Row>) =>
  listPage(t, { ...query, page: 0, per_page: 100 }, f).rows;

describe("carrier list filters", () => {
  it("walks the first index the given filters allow and still applies the others", () => {
    const { table: t, scans } = table();
    expect(sids(listRecords(t, { "filter[kind]": "a", "filter[account_id]": "AC1" }, filters))).toEqual([
      "r1",
    ]);
    expect(scans).toEqual(["account=AC1"]);
  });
  it("scans the whole table when no indexed filter is given, and an empty filter filters nothing", () => {
    const { table: t, scans } = table();
    expect(sids(listRecords(t, { "filter[account_id]": "", "filter[number]": "4155" }, filters))).toEqual([
      "r1",
      "r2",
    ]);
    expect(scans).toEqual([]);
  });
  it("keeps created_at within from_date and a whole to_date day", () => {
    const { table: t } = table();
    expect(
      sids(listRecords(t, { "filter[from_date]": "2026-01-31", "filter[to_date]": "2026-01-31" }, filters)),
    ).toEqual(["r2"]);
  });
});
