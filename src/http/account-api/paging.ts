// Twilio's list envelope: Page (0-indexed), PageSize (default 50, at most 1000) and relative page URIs.
import { z } from "zod";
import type { StoredTable } from "../../domain/stored-table.js";
import { chooseIndex, type ListIndexes, walkPage, walkTable } from "../list-walk.js";
import { buildQuery } from "../params.js";

export const maxPageSize = 1000;
export const defaultPageSize = 50;

export const pagingQuery = {
  Page: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .default(0),
  // Above 1000 is clamped to 1000, the largest page Twilio serves (see docs/decisions.md).
  PageSize: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 1000")
    .default(defaultPageSize)
    .transform((n) => Math.min(n, maxPageSize)),
  PageToken: z.string().optional(),
};

export interface PageRequest {
  Page: number;
  PageSize: number;
  PageToken?: string | undefined;
}

/** One page read lazily, and whether another follows. */
export interface WalkedListPage<T> {
  rows: T[];
  more: boolean;
}

/**
 * One page of an account's list, newest first, walking the index that covers the most given filters and
 * stopping after the page. A `PageToken` of `PA<sid>` (what `next_page_uri` carries) starts right after
 * that record, so following next-page links never re-reads earlier pages; a bare `Page` skips them.
 */
export function walkListPage<T>(
  table: StoredTable<T>,
  indexes: ListIndexes,
  values: Readonly<Record<string, string | undefined>>,
  matches: ((row: T) => boolean) | undefined,
  page: PageRequest,
): WalkedListPage<T> {
  const choice = chooseIndex(indexes, (name) => values[name]);
  const token = page.PageToken?.startsWith("PA") ? page.PageToken.slice(2) : undefined;
  const after = token !== undefined && table.has(token) ? token : undefined;
  const walk = walkTable(table, choice, true, after);
  return walkPage(walk, {
    skip: after === undefined ? page.Page * page.PageSize : 0,
    take: page.PageSize,
    matches,
  });
}

export interface ListPage<T> {
  /** The plural snake_case key holding the records, e.g. `incoming_phone_numbers`. */
  key: string;
  /** Path of the list resource including `.json`. */
  path: string;
  /** Filters echoed into every page URI, in request order. */
  filters: [string, string][];
  page: PageRequest;
  /** Every matching record, in list order, or the page already walked (see `walkListPage`). */
  records: T[] | WalkedListPage<T>;
  render: (record: T) => unknown;
  /** The sid of a record, for PageToken values. */
  sidOf: (record: T) => string;
}

export function listEnvelope<T>(list: ListPage<T>): Record<string, unknown> {
  const { Page: page, PageSize: size } = list.page;
  const start = page * size;
  const records = list.records;
  const slice = Array.isArray(records) ? records.slice(start, start + size) : records.rows;
  const uriFor = (p: number, token?: string) =>
    `${list.path}?${buildQuery([...list.filters, ["PageSize", size], ["Page", p], ...(token ? ([["PageToken", token]] as [string, string][]) : [])])}`;
  const hasNext = Array.isArray(records) ? start + size < records.length : records.more;
  const last = slice[slice.length - 1];
  const first = slice[0];
  return {
    [list.key]: slice.map(list.render),
    end: slice.length === 0 ? 0 : start + slice.length - 1,
    first_page_uri: uriFor(0),
    next_page_uri: hasNext && last ? uriFor(page + 1, `PA${list.sidOf(last)}`) : null,
    page,
    page_size: size,
    previous_page_uri: page > 0 ? uriFor(page - 1, first ? `PB${list.sidOf(first)}` : undefined) : null,
    start,
    uri: uriFor(page),
  };
}

/**
 * The envelope's members besides the records, one set shared by every list's schema: each list route
 * builds its schema at start, and these were eight of its ten zod schemas (docs/decisions.md, start-up).
 */
const envelopeFields = {
  end: z.number().int(),
  first_page_uri: z.string(),
  next_page_uri: z.string().nullable(),
  page: z.number().int(),
  page_size: z.number().int(),
  previous_page_uri: z.string().nullable(),
  start: z.number().int(),
  uri: z.string(),
};

/** The list envelope's schema around one resource schema, e.g. `listSchema("calls", callResource)`. */
export function listSchema(key: string, item: z.ZodType) {
  return z.object({ [key]: z.array(item), ...envelopeFields });
}
