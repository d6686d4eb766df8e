// The journal files: pending records written in one batch with one fdatasync (or one later: the periodic policy), and a fresh file started for each compaction.
import { join } from "node:path";
import { retireJournal, syncLater } from "./background-sync.js";
import type { WritableFile } from "./files.js";
import { scanFrames } from "./frame.js";
import { journalName } from "./layout.js";
import { type DataDirState, durableAfterBarrier, fail } from "./writer-state.js";

/** Writes the pending records to the journal; on failure takes the file back to its last whole record. */
export async function writeBatch(s: DataDirState): Promise<boolean> {
  // Taken off the queue now: changes made while this batch is written wait for the next one.
  const batch = s.pending;
  s.pending = [];
  const upTo = batch[batch.length - 1]!.seq;
  const data = Buffer.concat(batch.map((p) => p.frame));
  try {
    await s.journal.truncate(s.journalBytes);
    await s.journal.write(data);
    if (s.fsync === "always") await s.journal.datasync();
  } catch (error) {
    // Kept, in order, for the retry.
    s.pending = batch.concat(s.pending);
    fail(s, s.journalPath, error);
    return false;
  }
  s.journalBytes += data.length;
  if (s.fsync === "periodic") syncLater(s);
  // Records the newest capture already holds (queued before it, written after it) are not news.
  for (const { seq } of batch) if (seq > s.capturedSeq) s.journalRecords += 1;
  s.writtenSeq = Math.max(s.writtenSeq, upTo);
  s.durableSeq = durableAfterBarrier(s);
  return true;
}

/**
 * Starts a fresh journal file: what follows `seq` goes there, so the snapshot can be written meanwhile. The
 * file already open is kept (its length is that of its whole records, whatever a failed write left after
 * them); a file already there is taken back to its whole records before anything is appended to it.
 */
export async function rotate(s: DataDirState, seq: number): Promise<boolean> {
  const path = join(s.dir, journalName(seq + 1));
  if (path === s.journalPath) return true;
  let next: WritableFile;
  try {
    next = await s.files.openAppend(path);
  } catch (error) {
    fail(s, path, error);
    return false;
  }
  let whole: number;
  try {
    whole = (await next.size()) === 0 ? 0 : wholeRecordsLength(await s.files.readAll(path));
    await next.truncate(whole);
  } catch (error) {
    await next.close().catch(() => undefined);
    fail(s, path, error);
    return false;
  }
  retireJournal(s, s.journal);
  s.journal = next;
  s.journalPath = path;
  s.journalBytes = whole;
  s.journalRecords = 0;
  return true;
}

/** How many bytes of `data` are whole records, up to the first that is not. */
function wholeRecordsLength(data: Buffer): number {
  let end = 0;
  for (const frame of scanFrames(data)) {
    if (frame.kind !== "record") break;
    end = frame.end;
  }
  return end;
}
