// Lazy list pages over the store's sorted indexes: pick the most selective index the given filters allow, walk it, stop after the page.
import type { StoredTable } from "../domain/stored-table.js";
import { compoundKey } from "../domain/table.js";

/**
 * A list's indexes, most selective first: each index name mapped to the filters whose values, in this
 * order, make its key (one filter for a plain index, several for a compound one such as account + status).
 */
export type ListIndexes = Readonly<Record<string, readonly string[]>>;

/** The index bucket a list walks, and the filters that bucket already guarantees. */
export interface IndexChoice {
  index?: string;
  key?: string;
  covered: ReadonlySet<string>;
}

/** The first declared index whose filters are all given; none (walk the whole table) when no index applies. */
export function chooseIndex(
  indexes: ListIndexes,
  given: (filter: string) => string | undefined,
): IndexChoice {
  for (const [index, filters] of Object.entries(indexes)) {
    const values = filters.map(given);
    if (values.some((value) => value === undefined)) continue;
    return { index, key: compoundKey(...values)!, covered: new Set(filters) };
  }
  return { covered: new Set() };
}

/** One page of a walk: its rows, whether any row follows, and (when asked) how many rows match in all. */
export interface WalkedPage<T> {
  rows: T[];
  more: boolean;
  total?: number;
}

export interface WalkOptions<T> {
  /** Rows to pass over before the page (earlier pages). */
  skip: number;
  take: number;
  /** The test rows must pass besides what the index guarantees; none when the index covers every filter. */
  matches?: ((row: T) => boolean) | undefined;
  /** Count every matching row, for lists whose links name the last page. */
  total?: boolean;
}

/**
 * Reads `rows` until the page is full (and one more, to know whether a next page exists). Counting a total
 * reads on to the end of the walk, so a list that needs one walks its whole bucket (see docs/lists.md).
 */
export function walkPage<T>(rows: Iterable<T>, options: WalkOptions<T>): WalkedPage<T> {
  const { skip, take, matches } = options;
  const page: T[] = [];
  let seen = 0;
  let more = false;
  for (const row of rows) {
    if (matches && !matches(row)) continue;
    if (seen >= skip && page.length < take) page.push(row);
    else if (seen >= skip + take) {
      more = true;
      if (!options.total) break;
    }
    seen += 1;
  }
  return options.total ? { rows: page, more, total: seen } : { rows: page, more };
}

/** Walks `table` through the chosen index (or whole), newest first when `reverse`, starting after `after`. */
export function walkTable<T>(
  table: StoredTable<T>,
  choice: IndexChoice,
  reverse: boolean,
  after?: string,
): Iterable<T> {
  return table.scan({
    ...(choice.index === undefined ? {} : { index: choice.index, key: choice.key! }),
    reverse,
    ...(after === undefined ? {} : { after }),
  });
}
