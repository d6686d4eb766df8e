// Compaction: when the journal has grown enough a point-in-time capture is taken, and written as the new snapshot, which retires the journals before it.
import { join } from "node:path";
import { type Store, tableNames } from "../../domain/store.js";
import { compactSnapshot } from "./compact-snapshot.js";
import { journalPattern, legacyJournalFileName } from "./layout.js";
import { syncDirectory } from "./snapshot-file.js";
import { type DataDirState, fail, type RowCounts, type SnapshotDue } from "./writer-state.js";

/** A snapshot this small is rewritten every `snapshotEvery` records; a larger one once the journal is a quarter of it. */
const smallSnapshot = 1024 * 1024;

/** Every row of every table: what a journal record says the store held after its change. */
export function storeRows(store: Store): number {
  let rows = 0;
  for (const name of tableNames) rows += store[name].size;
  return rows;
}

/**
 * The state as it is now (a point in time, read lazily, once), with each table's size and the journal
 * sequence it reflects: every change up to `seq` is in it, none after.
 */
export function captureSnapshot(s: DataDirState, seq = s.appendedSeq): SnapshotDue {
  const state = s.sandbox.captureState();
  s.capturedSeq = Math.max(s.capturedSeq, seq);
  const rows: RowCounts = {};
  for (const [name] of state.tables) rows[name] = s.sandbox.store[name].size;
  return { seq, state, rows };
}

/** Writes the snapshot atomically (a temporary file renamed over it), then removes the journals it replaces. */
export async function writeSnapshot(s: DataDirState, due: SnapshotDue): Promise<boolean> {
  const { dir, files, snapshotPath } = s;
  const temporary = `${snapshotPath}.tmp`;
  let bytes = 0;
  try {
    const out = await files.openWrite(temporary);
    try {
      for await (const piece of compactSnapshot(due.seq, due.state, due.rows)) {
        bytes += piece.length;
        await out.write(piece);
      }
      await out.sync();
    } finally {
      await out.close();
    }
    await files.rename(temporary, snapshotPath);
    await syncDirectory(dir);
    // Journals wholly before the snapshot's are no longer needed.
    for (const name of await files.list(dir)) {
      const match = journalPattern.exec(name);
      const older = match
        ? Number(match[1]) <= due.seq && join(dir, name) !== s.journalPath
        : name === legacyJournalFileName;
      if (older) await files.remove(join(dir, name));
    }
  } catch (error) {
    fail(s, snapshotPath, error);
    return false;
  }
  s.snapshotBytes = bytes;
  return true;
}

/** Captures the state for a snapshot once the journal has grown enough (see `snapshotEvery`). */
export function compactIfDue(s: DataDirState): void {
  if (s.compacting || s.snapshotDue || s.journalRecords < s.snapshotEvery) return;
  // Nothing changed since the newest capture (one being started, or written): it is already the state.
  if (s.appendedSeq <= s.capturedSeq) return;
  if (s.journalBytes * 4 < s.snapshotBytes - smallSnapshot) return;
  // Captured now; the write goes on while new changes are journaled.
  s.snapshotDue = captureSnapshot(s);
}
