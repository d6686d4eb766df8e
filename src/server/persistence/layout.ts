// The data directory's file names and what one journal record holds, shared by replay and the writer.
import type { IdGeneratorState } from "../../domain/ids.js";
import type { TableChange } from "../../domain/table.js";

/** One committed store change (a whole transaction), with what must survive besides the rows. */
export interface JournalRecord {
  seq: number;
  /** The id generator's state after the change, so sids never repeat after a restart. */
  ids: IdGeneratorState;
  /** Sandbox time of the change, so time never goes backwards after a restart. */
  now: number;
  /** Every table's rows after the change, summed, so a replay that ends with fewer is refused (absent in older files). */
  rows?: number;
  changes: TableChange[];
}

export const snapshotFileName = "snapshot.ndjson";
/** The single-JSON snapshot of earlier versions, still read when no NDJSON snapshot exists. */
export const legacySnapshotFileName = "snapshot.json";
export const legacyJournalFileName = "journal.log";
export const journalName = (firstSeq: number) => `journal.${String(firstSeq).padStart(12, "0")}.log`;
export const journalPattern = /^journal\.(\d{12})\.log$/;

export const reasonOf = (error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message.replace(/^\w+: /, "")}` : String(e?.message ?? e);
};
