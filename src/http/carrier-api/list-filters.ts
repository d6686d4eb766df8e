// Carrier list filters as data: each `filter[...]` key mapped to the record field it matches, the indexes that narrow the walk, and the created-at date range.
import type { StoredTable } from "../../domain/stored-table.js";
import { chooseIndex, type ListIndexes, walkPage, walkTable } from "../list-walk.js";
import { dateRange } from "./document.js";

type Query = Readonly<Record<string, unknown>>;

export interface ListFilters<T> {
  /**
   * Indexes by name, most selective first, each with the filter keys that make its key: the first whose
   * filters are all given is walked instead of the whole table (a long list is never walked whole when it
   * need not be).
   */
  indexes?: ListIndexes;
  /** Filters a record passes when this field equals the filter's value. */
  equal?: Readonly<Record<string, (record: T) => unknown>>;
  /** Filters with a test of their own (part of a number, the start of a timestamp). */
  match?: Readonly<Record<string, (record: T, value: string) => boolean>>;
  /** The record's creation instant, kept between `filter[from_date]` and `filter[to_date]` (see `dateRange`). */
  createdAt?: (record: T) => number;
}

/** One page of a carrier list and the number of records matching in all (for `meta.total` and `last`). */
export interface RecordPage<T> {
  rows: T[];
  total: number;
}

/** A filter's value when given: an empty `filter[x]=` filters nothing. */
function given(query: Query, key: string): string | undefined {
  const value = query[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The test for every given filter except those in `covered`; undefined when nothing is left to test. */
function recordTest<T>(
  query: Query,
  filters: ListFilters<T>,
  covered: ReadonlySet<string> = new Set(),
): ((record: T) => boolean) | undefined {
  const tests: ((record: T) => boolean)[] = [];
  for (const [key, field] of Object.entries(filters.equal ?? {})) {
    const value = given(query, key);
    if (value !== undefined && !covered.has(key)) tests.push((record) => field(record) === value);
  }
  for (const [key, test] of Object.entries(filters.match ?? {})) {
    const value = given(query, key);
    if (value !== undefined) tests.push((record) => test(record, value));
  }
  const createdAt = filters.createdAt;
  const from = given(query, "filter[from_date]");
  const to = given(query, "filter[to_date]");
  if (createdAt && (from !== undefined || to !== undefined)) {
    const [start, end] = dateRange(from, to);
    tests.push((record) => createdAt(record) >= start && createdAt(record) < end);
  }
  if (tests.length === 0) return undefined;
  return (record) => tests.every((test) => test(record));
}

/** The records that pass every given filter, in their order (for short per-account lists held as arrays). */
export function filterRecords<T>(records: T[], query: Query, filters: ListFilters<T>): T[] {
  const test = recordTest(query, filters);
  return test ? records.filter(test) : records;
}

/**
 * One page of a table's records that pass every given filter, oldest first. It walks the first index the
 * given filters allow and stops after the page when that index answers every filter (its size is the
 * total); a filter the index does not cover makes it walk that index's whole bucket to count the total.
 */
export function listPage<T>(
  table: StoredTable<T>,
  query: Query & { page: number; per_page: number },
  filters: ListFilters<T>,
  perPage: number = query.per_page,
): RecordPage<T> {
  const choice = chooseIndex(filters.indexes ?? {}, (key) => given(query, key));
  const matches = recordTest(query, filters, choice.covered);
  const walk = walkTable(table, choice, false);
  const skip = query.page * perPage;
  if (matches) {
    const page = walkPage(walk, { skip, take: perPage, matches, total: true });
    return { rows: page.rows, total: page.total! };
  }
  const total = choice.index === undefined ? table.size : table.count(choice.index, choice.key!);
  return { rows: walkPage(walk, { skip, take: perPage }).rows, total };
}
