// Carrier list filters as data: each `filter[...]` key mapped to the record field it matches, the indexes that narrow the first scan, and the created-at date range.
import type { Table } from "../../domain/table.js";
import { dateRange } from "./document.js";

type Query = Readonly<Record<string, unknown>>;

export interface ListFilters<T> {
  /**
   * Filter keys whose value is the key of a table index, narrowest first: the first one given picks
   * the rows scanned instead of the whole table (a long list is never walked whole when it need not be).
   */
  indexes?: Readonly<Record<string, string>>;
  /** Filters a record passes when this field equals the filter's value. */
  equal?: Readonly<Record<string, (record: T) => unknown>>;
  /** Filters with a test of their own (part of a number, the start of a timestamp). */
  match?: Readonly<Record<string, (record: T, value: string) => boolean>>;
  /** The record's creation instant, kept between `filter[from_date]` and `filter[to_date]` (see `dateRange`). */
  createdAt?: (record: T) => number;
}

/** A filter's value when given: an empty `filter[x]=` filters nothing. */
function given(query: Query, key: string): string | undefined {
  const value = query[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The records that pass every given filter, in their order. */
export function filterRecords<T>(records: T[], query: Query, filters: ListFilters<T>): T[] {
  const tests: ((record: T) => boolean)[] = [];
  for (const [key, field] of Object.entries(filters.equal ?? {})) {
    const value = given(query, key);
    if (value !== undefined) tests.push((record) => field(record) === value);
  }
  for (const [key, test] of Object.entries(filters.match ?? {})) {
    const value = given(query, key);
    if (value !== undefined) tests.push((record) => test(record, value));
  }
  const createdAt = filters.createdAt;
  if (createdAt) {
    const [start, end] = dateRange(given(query, "filter[from_date]"), given(query, "filter[to_date]"));
    tests.push((record) => createdAt(record) >= start && createdAt(record) < end);
  }
  return records.filter((record) => tests.every((test) => test(record)));
}

/** A table's records that pass every given filter, oldest first, scanning the narrowest index given. */
export function listRecords<T>(table: Table<T>, query: Query, filters: ListFilters<T>): T[] {
  for (const [key, index] of Object.entries(filters.indexes ?? {})) {
    const value = given(query, key);
    if (value !== undefined) return filterRecords(table.where(index, value), query, filters);
  }
  return filterRecords(table.all(), query, filters);
}
