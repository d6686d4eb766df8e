// What the call and message lists share: a search by sid or number through the indexes, and "clear" as a mark of what was seen.
import type { StoredTable } from "../../domain/table.js";

interface Listed {
  sid: string;
  created_at: number;
  from: string;
  to: string;
}

/**
 * A list cleared up to a moment: rows made before `at` are hidden, and so are the rows made at `at` that were
 * already there (`hide`); rows made at the same millisecond afterwards (a virtual clock that stands still) show.
 */
export interface ClearMark {
  at: number;
  hide: ReadonlySet<string>;
}

/** Most sids a mark names: rows of one millisecond at the newest end of a table. */
export const markSidsLimit = 100;

/** The mark that hides every row the table holds now: its newest row's time and the sids made then. */
export function markOf<T extends Listed>(table: StoredTable<T>): { at: number; sids: string[] } | null {
  let at: number | null = null;
  const sids: string[] = [];
  for (const row of table.scan({ reverse: true })) {
    if (at === null) at = row.created_at;
    else if (row.created_at !== at || sids.length >= markSidsLimit) break;
    sids.push(row.sid);
  }
  return at === null ? null : { at, sids };
}

/** Whether a row shows after `mark`. */
export const shownAfter =
  (mark: ClearMark) =>
  (row: Listed): boolean =>
    row.created_at > mark.at || (row.created_at === mark.at && !mark.hide.has(row.sid));

/**
 * Rows newest first until the first made before `at`: rows are kept in the order they were made and the
 * sandbox clock never goes back, so nothing older follows and a cleared list reads only what came since.
 */
export function* sinceTime<T extends Listed>(rows: Iterable<T>, at: number | undefined): Generator<T> {
  for (const row of rows) {
    if (at !== undefined && row.created_at < at) return;
    yield row;
  }
}

/** The first row of a walk, if any. */
function firstOf<T>(rows: Iterable<T>): T | undefined {
  for (const row of rows) return row;
  return undefined;
}

/**
 * The rows from or to `number`, newest first, each once (a call from a number to itself is in both): the two
 * index walks merged by time, and rows of the same millisecond (a reply made as the message came in) by the
 * table's own order, asked of the index: `y` is older than `x` when it is the first "to" row before `x`.
 */
export function* fromOrTo<T extends Listed>(table: StoredTable<T>, number: string): Generator<T> {
  const walk = (index: string, after?: string) =>
    table.scan({ index, key: number, reverse: true, ...(after === undefined ? {} : { after }) });
  const from = walk("from")[Symbol.iterator]();
  const to = walk("to")[Symbol.iterator]();
  let x = from.next();
  let y = to.next();
  // Rows of the millisecond being merged, told already.
  let at: number | undefined;
  const told = new Set<string>();
  while (!x.done || !y.done) {
    let takeFrom: boolean;
    if (y.done) takeFrom = true;
    else if (x.done) takeFrom = false;
    else if (x.value.created_at !== y.value.created_at) takeFrom = x.value.created_at > y.value.created_at;
    else takeFrom = x.value.sid === y.value.sid || firstOf(walk("to", x.value.sid))?.sid === y.value.sid;
    let row: T;
    if (takeFrom) {
      row = x.value as T;
      x = from.next();
    } else {
      row = y.value as T;
      y = to.next();
    }
    if (row.created_at !== at) {
      at = row.created_at;
      told.clear();
    }
    if (told.has(row.sid)) continue;
    told.add(row.sid);
    yield row;
  }
}

/**
 * The rows a search names, newest first: one row by its sid, or those from or to a number (through the two
 * indexes); undefined when there is no search.
 */
export function searched<T extends Listed>(
  table: StoredTable<T>,
  q: string | undefined,
  sidPattern: RegExp,
): Iterable<T> | undefined {
  const term = q?.trim();
  if (!term) return undefined;
  if (sidPattern.test(term)) {
    const row = table.get(term);
    return row ? [row] : [];
  }
  return fromOrTo(table, term);
}
