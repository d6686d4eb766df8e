// Replay at a restart: the snapshot (or an earlier version's) into the sandbox, then every journal record after it, in order.
import { join } from "node:path";
import type { TableChange } from "../../domain/table.js";
import type { SandboxCore } from "../../sandbox.js";
import { storeRows } from "./compaction.js";
import type { DataDirFiles } from "./files.js";
import { scanFrames } from "./frame.js";
import {
  type JournalRecord,
  journalPattern,
  legacyJournalFileName,
  legacySnapshotFileName,
  snapshotFileName,
} from "./layout.js";
import { fewerRows, type LoadedSnapshot, loadSnapshot } from "./load-snapshot.js";
import { DataDirError, readSnapshotFile } from "./snapshot-file.js";

export interface ReplayResult {
  hadSnapshot: boolean;
  snapshotSeq: number;
  snapshotBytes: number;
  lastSeq: number;
  records: number;
  droppedTornRecord: boolean;
}

export async function replay(
  sandbox: SandboxCore,
  dir: string,
  files: DataDirFiles,
  warn: (message: string) => void,
): Promise<ReplayResult> {
  const names = await files.list(dir);
  const journals = names
    .filter((name) => journalPattern.test(name) || name === legacyJournalFileName)
    .sort((a, b) =>
      a === legacyJournalFileName ? -1 : b === legacyJournalFileName ? 1 : a.localeCompare(b),
    );
  const snapshot = await restoreSnapshot(sandbox, dir, files, names);
  if (!snapshot) {
    await refuseJournalsWithoutSnapshot(dir, files, journals);
    return {
      hadSnapshot: false,
      snapshotSeq: 0,
      snapshotBytes: 0,
      lastSeq: 0,
      records: 0,
      droppedTornRecord: false,
    };
  }
  const { repairs, warnings, last, ...replayed } = await replayJournals(
    sandbox,
    dir,
    files,
    journals,
    snapshot,
  );
  // Checked before anything is changed: a refusal leaves every file as it was.
  const rows = storeRows(sandbox.store);
  if (last?.rows !== undefined && rows < last.rows)
    throw new DataDirError(
      fewerRows(
        dir,
        `replaying the snapshot and journals up to seq ${last.seq} (${last.path})`,
        `${rows} of ${last.rows}`,
      ),
    );
  for (const repair of repairs) await repair(files);
  for (const warning of warnings) warn(warning);
  return { hadSnapshot: true, snapshotSeq: snapshot.seq, snapshotBytes: snapshot.bytes, ...replayed };
}

/** The NDJSON snapshot, or else an earlier version's single-JSON one, put in place; null when there is neither. */
async function restoreSnapshot(
  sandbox: SandboxCore,
  dir: string,
  files: DataDirFiles,
  names: string[],
): Promise<LoadedSnapshot | null> {
  const snapshot = await loadSnapshot(sandbox, join(dir, snapshotFileName), files);
  if (snapshot) return snapshot;
  const legacyPath = join(dir, legacySnapshotFileName);
  const legacy = names.includes(legacySnapshotFileName) ? await readSnapshotFile(legacyPath) : null;
  if (!legacy) return null;
  try {
    sandbox.restore(legacy.state);
  } catch (error) {
    throw new DataDirError(
      `${legacyPath}: the snapshot does not hold a valid state (${(error as Error).message}).`,
    );
  }
  const now = (legacy.state as { clock?: { now?: unknown } }).clock?.now;
  return { seq: legacy.seq, bytes: 0, now: typeof now === "number" ? now : 0 };
}

/** Without a snapshot, a journal that holds changes cannot be replayed: refused rather than dropped. */
async function refuseJournalsWithoutSnapshot(dir: string, files: DataDirFiles, journals: string[]) {
  for (const name of journals) {
    if ((await files.readAll(join(dir, name))).length > 0) {
      throw new DataDirError(
        `${join(dir, name)} has changes but ${join(dir, snapshotFileName)} is missing, so they cannot be replayed. Restore the snapshot from a backup, or move the data directory away to start empty.`,
      );
    }
  }
}

/** What replaying the journals found, and the file changes (cutting off a torn record...) it leaves for after the checks. */
interface JournalsReplayed {
  lastSeq: number;
  records: number;
  droppedTornRecord: boolean;
  /** The last record applied: what it says the store held after it. */
  last: { seq: number; path: string; rows: number | undefined } | undefined;
  repairs: ((files: DataDirFiles) => Promise<void>)[];
  warnings: string[];
}

/** Applies the journals' records after the snapshot's, dropping a torn last one and stopping at a gap. */
async function replayJournals(
  sandbox: SandboxCore,
  dir: string,
  files: DataDirFiles,
  journals: string[],
  snapshot: LoadedSnapshot,
): Promise<JournalsReplayed> {
  let latest = snapshot.now;
  let lastSeq = snapshot.seq;
  let records = 0;
  let droppedTornRecord = false;
  let stopped = false;
  let last: JournalsReplayed["last"];
  const repairs: JournalsReplayed["repairs"] = [];
  const warnings: string[] = [];
  const { store, ids } = sandbox.engine;
  for (const name of journals) {
    const path = join(dir, name);
    if (stopped) {
      // Changes made after a reset whose snapshot never reached the disk were never acknowledged.
      repairs.push((files) => files.remove(path));
      continue;
    }
    const data = await files.readAll(path);
    for (const frame of scanFrames(data)) {
      if (frame.kind === "corrupt") {
        throw new DataDirError(
          `${path}: ${frame.reason}. Refusing to start rather than lose the changes after it; restore the data directory from a backup, or move it away to start empty.`,
        );
      }
      if (frame.kind === "torn") {
        // A write the crash (or a full disk) cut short was never acknowledged: drop it and carry on.
        warnings.push(
          `${path}: dropped an incomplete last record at byte ${frame.offset} (${frame.reason}); it was never acknowledged`,
        );
        repairs.push((files) => files.truncate(path, frame.offset));
        droppedTornRecord = true;
        break;
      }
      let record: JournalRecord;
      try {
        record = JSON.parse(frame.payload) as JournalRecord;
      } catch {
        throw new DataDirError(
          `${path}: the record at byte ${frame.offset} passes its checksum but is not JSON.`,
        );
      }
      if (record.seq <= lastSeq) continue;
      if (record.seq > lastSeq + 1) {
        warnings.push(
          `${path}: replay stops at seq ${lastSeq}: a reset or restore after it never reached the disk, so nothing after it was acknowledged`,
        );
        repairs.push((files) => files.truncate(path, frame.offset));
        stopped = true;
        break;
      }
      try {
        store.transact(() => {
          for (const change of record.changes)
            applyChange(store as unknown as Record<string, TableLike>, change);
        });
      } catch (error) {
        throw new DataDirError(
          `${path}: the record at byte ${frame.offset} (seq ${record.seq}) does not apply: ${(error as Error).message}`,
        );
      }
      ids.setState(record.ids);
      latest = Math.max(latest, record.now);
      lastSeq = record.seq;
      last = { seq: record.seq, path, rows: typeof record.rows === "number" ? record.rows : undefined };
      records += 1;
    }
  }
  sandbox.clock.resumeFrom(latest);
  return { lastSeq, records, droppedTornRecord, last, repairs, warnings };
}

interface TableLike {
  has(id: string): boolean;
  replace(row: unknown): unknown;
  insert(row: unknown): unknown;
  delete(id: string): unknown;
}

function applyChange(tables: Record<string, TableLike>, change: TableChange): void {
  const table = tables[change.table];
  if (!table || typeof table.insert !== "function") throw new Error(`unknown table ${change.table}`);
  if (change.op === "delete") {
    table.delete(change.id);
    return;
  }
  try {
    table.replace(change.row);
  } catch {
    // Not there yet: a new row.
    table.insert(change.row);
  }
}
