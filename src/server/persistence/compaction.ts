// Compaction: when the journal has grown enough a point-in-time capture is taken, and written as the new snapshot, which retires the journals before it.
import { join } from "node:path";
import { compactSnapshot } from "./compact-snapshot.js";
import { journalPattern, legacyJournalFileName } from "./layout.js";
import { syncDirectory } from "./snapshot-file.js";
import { type DataDirState, fail, type SnapshotDue } from "./writer-state.js";

/** A snapshot this small is rewritten every `snapshotEvery` records; a larger one once the journal is a quarter of it. */
const smallSnapshot = 1024 * 1024;

/** Writes the snapshot atomically (a temporary file renamed over it), then removes the journals it replaces. */
export async function writeSnapshot(
  s: DataDirState,
  seq: number,
  state: SnapshotDue["state"],
): Promise<boolean> {
  const { dir, files, snapshotPath } = s;
  const temporary = `${snapshotPath}.tmp`;
  let bytes = 0;
  try {
    const out = await files.openWrite(temporary);
    try {
      for await (const piece of compactSnapshot(seq, state)) {
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
        ? Number(match[1]) <= seq && join(dir, name) !== s.journalPath
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
  if (s.journalBytes * 4 < s.snapshotBytes - smallSnapshot) return;
  // Captured now (a point in time, read lazily); the write goes on while new changes are journaled.
  s.snapshotDue = { seq: s.appendedSeq, state: s.sandbox.captureState() };
}
