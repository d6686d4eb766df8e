// Crash-safe state in a data directory: a streamed NDJSON snapshot plus group-committed journal files, compacted in the background, surviving disk faults.
import { join } from "node:path";
import { setImmediate as yieldToRequests } from "node:timers/promises";
import type { TableChange } from "../../domain/table.js";
import { runInSlices } from "../../http/admin-api/state-stream.js";
import { type Handle, surfaceOf } from "../../http/handle.js";
import { renderError } from "../../http/render-error.js";
import type { SandboxCore } from "../../sandbox.js";
import { syncNow } from "./background-sync.js";
import { captureSnapshot, compactIfDue, storeRows, writeSnapshot } from "./compaction.js";
import { type DataDirFiles, nodeFiles } from "./files.js";
import { encodeFrame } from "./frame.js";
import { type JournalRecord, journalName, snapshotFileName } from "./layout.js";
import { replay } from "./replay.js";
import { DataDirError } from "./snapshot-file.js";
import { kick, waitFor } from "./write-loop.js";
import { type DataDirLog, type DataDirState, type FsyncPolicy, failureError } from "./writer-state.js";

export { DataDirError } from "./snapshot-file.js";
export type { FsyncPolicy } from "./writer-state.js";

export interface PersistenceOptions {
  /**
   * Compact after this many journal records (default 1000); past 1 MB of snapshot, only once the journal
   * has also grown to a quarter of it, so a large state is not rewritten for every thousand changes.
   */
  snapshotEvery?: number;
  /** Told about a torn last record that was dropped, and about replay stopping at an unfinished reset. */
  warn?: (message: string) => void;
  /** Told about each failed write (error level) with the file and the reason, and about recovery. */
  log?: DataDirLog;
  /** Milliseconds between retries of a failed write. Default 1000. */
  retryMs?: number;
  /** The file operations used (a fault-injecting layer in tests). */
  files?: DataDirFiles;
  /**
   * When a change counts as saved (default `periodic`): `always` fdatasyncs each journal batch before the
   * responses that saw it go (a power loss keeps every acknowledged change); `periodic` writes the batch to
   * the file before they go and fdatasyncs it within `syncEveryMs` (a crash of the process loses nothing; a
   * power loss or kernel crash can lose the last second).
   */
  fsync?: FsyncPolicy;
  /** `periodic`: the longest a written change waits for its fdatasync. Default 1000 ms. */
  syncEveryMs?: number;
}

export interface Persistence {
  /** `handle` whose responses are sent only once the changes they saw are on disk. */
  wrap(handle: Handle): Handle;
  /** Resolves once everything changed so far is on disk and no compaction is under way. */
  flush(): Promise<void>;
  /** Flushes, stops journaling and closes the files. */
  close(): Promise<void>;
  /** What replay found at start. */
  readonly replayed: { snapshotSeq: number; records: number; droppedTornRecord: boolean };
  /**
   * Resolves once the secondary indexes the restart left for later are all filed (in slices of ~10 ms
   * while requests are answered; a request that needs one first has it finished at once).
   */
  readonly indexesBuilt: Promise<void>;
}

export const defaultSnapshotEvery = 1000;

/**
 * Opens (or creates) `dir`, replays its snapshot and journals into `sandbox`, and journals every change from
 * then on. Group commit: a change is written (and, with `fsync: "always"`, fdatasync'd) before any response
 * that ran after it is sent; requests that arrive together share one write. Compaction streams a point-in-time
 * snapshot to a new file while changes go on into a fresh journal file. A failed write is kept and retried;
 * meanwhile changes are refused with 503 and health reports the data directory as degraded.
 */
export async function openDataDir(
  sandbox: SandboxCore,
  dir: string,
  options: PersistenceOptions = {},
): Promise<Persistence> {
  const files = options.files ?? nodeFiles;
  const snapshotEvery = options.snapshotEvery ?? defaultSnapshotEvery;
  const warn = options.warn ?? (() => undefined);
  const retryMs = options.retryMs ?? 1000;
  const snapshotPath = join(dir, snapshotFileName);
  await files.mkdir(dir);

  const replayed = await replay(sandbox, dir, files, warn);
  const journalPath = join(dir, journalName(replayed.lastSeq + 1));
  const journal = await files.openAppend(journalPath);
  const s: DataDirState = {
    sandbox,
    dir,
    files,
    snapshotEvery,
    log: options.log,
    retryMs,
    fsync: options.fsync ?? "periodic",
    syncEveryMs: options.syncEveryMs ?? 1000,
    unsynced: false,
    syncTimer: undefined,
    syncing: undefined,
    syncFailed: false,
    snapshotPath,
    appendedSeq: replayed.lastSeq,
    writtenSeq: replayed.lastSeq,
    durableSeq: replayed.lastSeq,
    retryAt: false,
    journalPath,
    journal,
    journalBytes: await journal.size(),
    journalRecords: replayed.records,
    capturedSeq: replayed.snapshotSeq,
    snapshotBytes: replayed.snapshotBytes,
    snapshotDue: undefined,
    barrier: undefined,
    pending: [],
    failure: undefined,
    closed: false,
    running: undefined,
    compacting: undefined,
    waiters: [],
  };

  const unsubscribe = sandbox.store.subscribe((changes) => journalChanges(s, changes));
  const unlisten = sandbox.onStateReplaced(() => snapshotReplacedState(s));
  // A fresh directory starts from the sandbox's current state (its fixtures), written as the first snapshot.
  if (!replayed.hadSnapshot && !(await writeSnapshot(s, captureSnapshot(s)))) {
    await s.journal.close();
    unsubscribe();
    unlisten();
    throw new DataDirError(`${snapshotPath}: cannot write the first snapshot (${s.failure?.reason})`);
  }

  // Filed once the caller has had its turn (a server starts listening first), in slices between requests.
  const indexesBuilt = yieldToRequests().then(() => runInSlices(sandbox.store.buildIndexes()));
  return {
    indexesBuilt,
    replayed: {
      snapshotSeq: replayed.snapshotSeq,
      records: replayed.records,
      droppedTornRecord: replayed.droppedTornRecord,
    },
    wrap: (handle) => durableHandle(s, handle),
    flush: () => flush(s),
    close: () =>
      close(s, () => {
        unsubscribe();
        unlisten();
      }),
  };
}

/** A committed store change becomes the next journal record, written by the next batch. */
function journalChanges(s: DataDirState, changes: TableChange[]): void {
  const record: JournalRecord = {
    seq: ++s.appendedSeq,
    ids: s.sandbox.engine.ids.state(),
    now: s.sandbox.clock.now(),
    rows: storeRows(s.sandbox.store),
    changes,
  };
  s.pending.push({ seq: record.seq, frame: encodeFrame(JSON.stringify(record)) });
  queueMicrotask(() => kick(s));
}

/** A reset or restore replaces everything at once: the next step writes a fresh snapshot. */
function snapshotReplacedState(s: DataDirState): void {
  const seq = ++s.appendedSeq;
  s.snapshotDue = captureSnapshot(s, seq);
  s.barrier = seq;
  queueMicrotask(() => kick(s));
}

/** `handle`, its responses held until what they saw is on disk, and changes refused while the disk refuses writes. */
function durableHandle(s: DataDirState, handle: Handle): Handle {
  return async (request) => {
    const reads = request.method === "GET" || request.method === "HEAD";
    // While the disk refuses writes, a change is refused before it is made: nothing half-applied.
    if (s.failure && !reads) return renderError(surfaceOf(request.path), failureError(s));
    const response = await handle(request);
    // Reads (health among them) go on answering from memory meanwhile.
    if (s.failure && reads) return response;
    // Whatever this response could have seen must be on disk before it is sent.
    try {
      await waitFor(s, s.appendedSeq);
    } catch (error) {
      // Never acknowledge a change that is not on disk.
      return renderError(surfaceOf(request.path), error, request.path);
    }
    return response;
  };
}

async function flush(s: DataDirState): Promise<void> {
  await waitFor(s, s.appendedSeq);
  await syncNow(s);
  // The writer may be between taking a snapshot due and starting to write it (a journal rotation): wait it out.
  for (compactIfDue(s); s.compacting || s.snapshotDue || s.running; compactIfDue(s)) {
    kick(s);
    await (s.compacting ?? s.running ?? new Promise<void>((resolve) => setImmediate(resolve)));
  }
}

async function close(s: DataDirState, stopListening: () => void): Promise<void> {
  if (s.closed) return;
  try {
    await waitFor(s, s.appendedSeq);
  } finally {
    s.closed = true;
    stopListening();
    await s.running;
    await s.compacting;
    // Whatever a failing disk leaves unsynced stays in the file; the last sync's own failure is logged.
    await syncNow(s).catch(() => undefined);
    if (s.syncTimer) clearTimeout(s.syncTimer);
    await s.journal.close();
  }
}
