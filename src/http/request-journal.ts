// The request journal: the latest API requests (method, path, status, latency, account, fault) in a bounded ring.
import { NewestRing } from "../domain/newest-ring.js";
import { globToRegExp } from "../engine/context/faults.js";
import type { Surface } from "./types.js";

export interface JournalEntry {
  /** 1, 2, 3... in arrival order; keeps counting when old entries fall out of the ring. */
  id: number;
  /** Sandbox-clock time the request arrived, ISO 8601. */
  at: string;
  method: string;
  path: string;
  /** Raw query string ("" when none). */
  query: string;
  surface: Surface;
  status: number;
  /** Real milliseconds spent answering, injected delay included. */
  latency_ms: number;
  /** The account the request acted as or on; null for the carrier key, admin and anonymous calls. */
  account_sid: string | null;
  /** The injected fault that shaped the answer, if any. */
  fault: { id: string; status?: number; delay_ms?: number } | null;
  /** The request body's first 2 KiB (null when empty); secrets are masked when the journal is read. */
  request_body: string | null;
  /** The answer's first 2 KiB (null when empty or binary); secrets are masked when the journal is read. */
  response_body: string | null;
  /** The error code of a 4xx/5xx answer (Twilio's `code`, JSON:API's `errors[0].code`), else null. */
  error_code: number | null;
}

export interface JournalFilter {
  method?: string;
  /** Path glob (`*` matches anything). */
  path?: string;
  /** Exact status, or a class such as `4xx`. */
  status?: string;
  account_sid?: string;
  surface?: Surface;
  /** Only requests a fault shaped (true) or none did (false). */
  fault?: boolean;
  /** Only entries with an id above this (to poll for what is new). */
  after?: number;
  /** At most this many, the newest ones. */
  limit?: number;
}

/**
 * A request as the journal is given it: its arrival as sandbox-clock milliseconds, formatted only when read
 * (most entries never are), or already as ISO 8601.
 */
export type RecordedRequest = Omit<JournalEntry, "id" | "at"> & { at: number | string };

type Kept = RecordedRequest & { id: number };

/** An entry as read: `at` in ISO 8601, the fields in the order the admin API shows them. */
const shownEntry = (kept: Kept): JournalEntry => ({
  ...kept,
  at: typeof kept.at === "string" ? kept.at : new Date(kept.at).toISOString(),
});

export interface RequestJournal {
  readonly capacity: number;
  /** Keeps one request (see RecordedRequest). */
  record(entry: RecordedRequest): void;
  /** Matching entries, oldest first. */
  list(filter?: JournalFilter): JournalEntry[];
  /** How many requests were recorded since the start (or the last clear), including those dropped. */
  total(): number;
  clear(): void;
}

export const defaultJournalCapacity = 1000;

export function createRequestJournal(capacity = defaultJournalCapacity): RequestJournal {
  const ring = new NewestRing<Kept>(capacity, "journalLimit");
  let nextId = 1;
  let recorded = 0;

  return {
    capacity,
    record(entry) {
      recorded += 1;
      // Every field named (no spread): one object whose fields all live inside it, the smallest the ring can keep.
      ring.push({
        id: nextId++,
        at: entry.at,
        method: entry.method,
        path: entry.path,
        query: entry.query,
        surface: entry.surface,
        status: entry.status,
        latency_ms: entry.latency_ms,
        account_sid: entry.account_sid,
        fault: entry.fault,
        request_body: entry.request_body,
        response_body: entry.response_body,
        error_code: entry.error_code,
      });
    },
    list(filter = {}) {
      const path = filter.path ? globToRegExp(filter.path) : undefined;
      const method = filter.method?.toUpperCase();
      const status = filter.status;
      const matching = ring.filter(
        (e) =>
          (method === undefined || e.method === method) &&
          (path === undefined || path.test(e.path)) &&
          (status === undefined ||
            (/^[1-5]xx$/i.test(status) ? String(e.status)[0] === status[0] : String(e.status) === status)) &&
          (filter.account_sid === undefined || e.account_sid === filter.account_sid) &&
          (filter.surface === undefined || e.surface === filter.surface) &&
          (filter.fault === undefined || (e.fault !== null) === filter.fault) &&
          (filter.after === undefined || e.id > filter.after),
      );
      const limited =
        filter.limit === undefined ? matching : matching.slice(Math.max(0, matching.length - filter.limit));
      return limited.map(shownEntry);
    },
    total: () => recorded,
    clear() {
      ring.clear();
      recorded = 0;
    },
  };
}
