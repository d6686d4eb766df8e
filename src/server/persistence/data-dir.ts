// Crash-safe state in a data directory: replay at start, then a group-committed change journal and snapshots.
import { mkdir, open, readFile, truncate } from "node:fs/promises";
import { join } from "node:path";
import type { IdGeneratorState } from "../../domain/ids.js";
import type { TableChange } from "../../domain/table.js";
import { type Handle, surfaceOf } from "../../http/handle.js";
import { renderError } from "../../http/render-error.js";
import type { SandboxCore, SandboxSnapshot } from "../../sandbox.js";
import { encodeFrame, scanFrames } from "./frame.js";
import { DataDirError, readSnapshotFile, writeSnapshotFile } from "./snapshot-file.js";

export { DataDirError } from "./snapshot-file.js";

/** One committed store change (a whole transaction), with what must survive besides the rows. */
interface JournalRecord {
  seq: number;
  /** The id generator's state after the change, so sids never repeat after a restart. */
  ids: IdGeneratorState;
  /** Sandbox time of the change, so time never goes backwards after a restart. */
  now: number;
  changes: TableChange[];
}

export interface PersistenceOptions {
  /** Compact the journal into a snapshot after this many records. Default 1000. */
  snapshotEvery?: number;
  /** Told about a torn last record that was dropped, and about compactions. */
  warn?: (message: string) => void;
}

export interface Persistence {
  /** `handle` whose responses are sent only once the changes they saw are on disk. */
  wrap(handle: Handle): Handle;
  /** Resolves once everything changed so far is on disk. */
  flush(): Promise<void>;
  /** Flushes, stops journaling and closes the files. */
  close(): Promise<void>;
  /** What replay found at start. */
  readonly replayed: { snapshotSeq: number; records: number; droppedTornRecord: boolean };
}

export const snapshotFileName = "snapshot.json";
export const journalFileName = "journal.log";
export const defaultSnapshotEvery = 1000;

/**
 * Opens (or creates) `dir`, replays its snapshot and journal into `sandbox`, and journals every change from
 * then on. Fsync policy (group commit): a change is written and fdatasync'd before any response that ran
 * after it is sent; requests that arrive together share one fdatasync. A fresh directory starts from the
 * sandbox's current state (its fixtures), written as the first snapshot.
 */
export async function openDataDir(
  sandbox: SandboxCore,
  dir: string,
  options: PersistenceOptions = {},
): Promise<Persistence> {
  const snapshotEvery = options.snapshotEvery ?? defaultSnapshotEvery;
  const warn = options.warn ?? (() => undefined);
  const snapshotPath = join(dir, snapshotFileName);
  const journalPath = join(dir, journalFileName);
  await mkdir(dir, { recursive: true });

  const replayed = await replay(sandbox, snapshotPath, journalPath, warn);
  const seq = replayed.lastSeq;
  if (!replayed.hadSnapshot) await writeSnapshotFile(snapshotPath, seq, sandbox.snapshot());

  const journal = await open(journalPath, "a");
  let pending: Buffer[] = [];
  let appendedSeq = seq;
  let durableSeq = seq;
  let sinceSnapshot = replayed.records;
  let compactAt = 0;
  let failure: Error | undefined;
  let closed = false;
  const waiters: { seq: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  let running: Promise<void> | undefined;

  const settle = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!;
      if (failure) waiter.reject(failure);
      else if (waiter.seq <= durableSeq) waiter.resolve();
      else continue;
      waiters.splice(i, 1);
    }
  };

  const writeAll = async (data: Buffer) => {
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await journal.write(data, written, data.length - written);
      written += bytesWritten;
    }
  };

  const compact = async () => {
    // Taken synchronously: the snapshot holds exactly the changes up to `upTo`.
    const upTo = appendedSeq;
    const state = sandbox.snapshot();
    pending = [];
    compactAt = 0;
    await writeSnapshotFile(snapshotPath, upTo, state);
    // Records up to `upTo` are in the snapshot; replay skips them even if this truncate never happens.
    await journal.truncate(0);
    await journal.datasync();
    sinceSnapshot = 0;
    durableSeq = Math.max(durableSeq, upTo);
  };

  const loop = async () => {
    try {
      while (!failure && (appendedSeq > durableSeq || compactAt > 0)) {
        if (compactAt > 0 || sinceSnapshot >= snapshotEvery) {
          await compact();
        } else {
          const upTo = appendedSeq;
          const batch = Buffer.concat(pending);
          pending = [];
          await writeAll(batch);
          await journal.datasync();
          durableSeq = upTo;
        }
        settle();
      }
    } catch (error) {
      failure = new Error(`could not write to the data directory ${dir}: ${(error as Error).message}`);
      settle();
    } finally {
      running = undefined;
    }
  };
  const kick = () => {
    if (!running && !closed) running = loop();
  };

  const unsubscribe = sandbox.store.subscribe((changes) => {
    const record: JournalRecord = {
      seq: ++appendedSeq,
      ids: sandbox.engine.ids.state(),
      now: sandbox.clock.now(),
      changes,
    };
    pending.push(encodeFrame(JSON.stringify(record)));
    sinceSnapshot += 1;
    queueMicrotask(kick);
  });
  // A reset or restore replaces everything at once: the next step writes a fresh snapshot.
  const unlisten = sandbox.onStateReplaced(() => {
    compactAt = ++appendedSeq;
    queueMicrotask(kick);
  });

  const waitFor = (target: number) =>
    new Promise<void>((resolve, reject) => {
      if (failure) reject(failure);
      else if (target <= durableSeq) resolve();
      else {
        waiters.push({ seq: target, resolve, reject });
        kick();
      }
    });

  return {
    replayed: {
      snapshotSeq: replayed.snapshotSeq,
      records: replayed.records,
      droppedTornRecord: replayed.droppedTornRecord,
    },
    wrap(handle) {
      return async (request) => {
        const response = await handle(request);
        // Whatever this response could have seen must be on disk before it is sent.
        try {
          await waitFor(appendedSeq);
        } catch (error) {
          // Never acknowledge a change that is not on disk.
          return renderError(surfaceOf(request.path), error);
        }
        return response;
      };
    },
    flush: () => waitFor(appendedSeq),
    async close() {
      if (closed) return;
      try {
        await waitFor(appendedSeq);
      } finally {
        closed = true;
        unsubscribe();
        unlisten();
        await running;
        await journal.close();
      }
    },
  };
}

interface ReplayResult {
  hadSnapshot: boolean;
  snapshotSeq: number;
  lastSeq: number;
  records: number;
  droppedTornRecord: boolean;
}

async function replay(
  sandbox: SandboxCore,
  snapshotPath: string,
  journalPath: string,
  warn: (message: string) => void,
): Promise<ReplayResult> {
  const snapshot = await readSnapshotFile(snapshotPath);
  let data: Buffer;
  try {
    data = await readFile(journalPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    data = Buffer.alloc(0);
  }
  if (!snapshot) {
    if (data.length > 0) {
      throw new DataDirError(
        `${journalPath} has changes but ${snapshotPath} is missing, so they cannot be replayed. Restore the snapshot from a backup, or move the data directory away to start empty.`,
      );
    }
    return { hadSnapshot: false, snapshotSeq: 0, lastSeq: 0, records: 0, droppedTornRecord: false };
  }

  try {
    sandbox.restore(snapshot.state);
  } catch (error) {
    throw new DataDirError(
      `${snapshotPath}: the snapshot does not hold a valid state (${(error as Error).message}).`,
    );
  }
  const saved = snapshot.state as SandboxSnapshot;
  let latest = typeof saved.clock?.now === "number" ? saved.clock.now : 0;
  let lastSeq = snapshot.seq;
  let records = 0;
  let droppedTornRecord = false;
  const { store, ids } = sandbox.engine;

  for (const frame of scanFrames(data)) {
    if (frame.kind === "corrupt") {
      throw new DataDirError(
        `${journalPath}: ${frame.reason}. Refusing to start rather than lose the changes after it; restore the data directory from a backup, or move it away to start empty.`,
      );
    }
    if (frame.kind === "torn") {
      // A write the crash cut short was never acknowledged: drop it and carry on.
      warn(
        `${journalPath}: dropped an incomplete last record at byte ${frame.offset} (${frame.reason}); it was never acknowledged`,
      );
      await truncate(journalPath, frame.offset);
      droppedTornRecord = true;
      break;
    }
    let record: JournalRecord;
    try {
      record = JSON.parse(frame.payload) as JournalRecord;
    } catch {
      throw new DataDirError(
        `${journalPath}: the record at byte ${frame.offset} passes its checksum but is not JSON.`,
      );
    }
    if (record.seq <= snapshot.seq) continue;
    try {
      store.transact(() => {
        for (const change of record.changes)
          applyChange(store as unknown as Record<string, TableLike>, change);
      });
    } catch (error) {
      throw new DataDirError(
        `${journalPath}: the record at byte ${frame.offset} (seq ${record.seq}) does not apply: ${(error as Error).message}`,
      );
    }
    ids.setState(record.ids);
    latest = Math.max(latest, record.now);
    lastSeq = record.seq;
    records += 1;
  }
  // The rows came from the store itself; validating the result once catches a journal from another version.
  try {
    store.restore(store.snapshot());
  } catch (error) {
    throw new DataDirError(`${journalPath}: the replayed state is not valid (${(error as Error).message}).`);
  }
  sandbox.clock.resumeFrom(latest);
  return { hadSnapshot: true, snapshotSeq: snapshot.seq, lastSeq, records, droppedTornRecord };
}

interface TableLike {
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
