// Crash-safe state in a data directory: a streamed NDJSON snapshot plus group-committed journal files, compacted in the background, surviving disk faults.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { setImmediate as yieldToRequests } from "node:timers/promises";
import { errors } from "../../domain/errors.js";
import type { IdGeneratorState } from "../../domain/ids.js";
import { StoreLoader } from "../../domain/store-stream.js";
import type { TableChange } from "../../domain/table.js";
import { waitRealTime } from "../../engine/time/clock.js";
import {
  readNdjsonState,
  runInSlices,
  StateStreamError,
  splitLines,
} from "../../http/admin-api/state-stream.js";
import { type Handle, surfaceOf } from "../../http/handle.js";
import { renderError } from "../../http/render-error.js";
import type { SandboxCore } from "../../sandbox.js";
import {
  CompactSnapshotError,
  compactSnapshot,
  compactSnapshotFormat,
  readCompactSnapshot,
} from "./compact-snapshot.js";
import { type DataDirFiles, nodeFiles, type WritableFile } from "./files.js";
import { encodeFrame, scanFrames } from "./frame.js";
import { DataDirError, readSnapshotFile, syncDirectory } from "./snapshot-file.js";

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
  /**
   * Compact after this many journal records (default 1000); past 1 MB of snapshot, only once the journal
   * has also grown to a quarter of it, so a large state is not rewritten for every thousand changes.
   */
  snapshotEvery?: number;
  /** Told about a torn last record that was dropped, and about replay stopping at an unfinished reset. */
  warn?: (message: string) => void;
  /** Told about each failed write (error level) with the file and the reason, and about recovery. */
  log?: {
    error(details: { path: string; reason: string }, message: string): void;
    info(details: Record<string, unknown>, message: string): void;
  };
  /** Milliseconds between retries of a failed write. Default 1000. */
  retryMs?: number;
  /** The file operations used (a fault-injecting layer in tests). */
  files?: DataDirFiles;
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

export const snapshotFileName = "snapshot.ndjson";
/** The single-JSON snapshot of earlier versions, still read when no NDJSON snapshot exists. */
export const legacySnapshotFileName = "snapshot.json";
export const legacyJournalFileName = "journal.log";
export const defaultSnapshotEvery = 1000;
/** The format of snapshots written before the compact one, still read. */
const snapshotFormat = "voice-sandbox-data/2";
/** A snapshot this small is rewritten every `snapshotEvery` records; a larger one once the journal is a quarter of it. */
const smallSnapshot = 1024 * 1024;
const journalName = (firstSeq: number) => `journal.${String(firstSeq).padStart(12, "0")}.log`;
const journalPattern = /^journal\.(\d{12})\.log$/;

const reasonOf = (error: unknown) => {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message.replace(/^\w+: /, "")}` : String(e?.message ?? e);
};

/**
 * Opens (or creates) `dir`, replays its snapshot and journals into `sandbox`, and journals every change from
 * then on. Fsync policy (group commit): a change is written and fdatasync'd before any response that ran
 * after it is sent; requests that arrive together share one fdatasync. Compaction streams a point-in-time
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
  const log = options.log;
  const retryMs = options.retryMs ?? 1000;
  const snapshotPath = join(dir, snapshotFileName);
  await files.mkdir(dir);

  const replayed = await replay(sandbox, dir, files, warn);
  let appendedSeq = replayed.lastSeq;
  /** The newest change on disk, in a journal or a snapshot. */
  let writtenSeq = appendedSeq;
  /** The newest change a response may acknowledge: none past a reset whose snapshot is not on disk yet. */
  let durableSeq = appendedSeq;
  let retryAt = false;
  let journalPath = join(dir, journalName(appendedSeq + 1));
  let journal: WritableFile = await files.openAppend(journalPath);
  let journalBytes = await journal.size();
  let journalRecords = replayed.records;
  let snapshotBytes = replayed.snapshotBytes;
  let snapshotDue: { seq: number; state: ReturnType<SandboxCore["captureState"]> } | undefined;
  /** A reset or restore not yet on disk: nothing after it counts as durable until its snapshot is. */
  let barrier: number | undefined;
  let pending: { seq: number; frame: Buffer }[] = [];
  let failure: { path: string; reason: string } | undefined;
  let closed = false;
  let running: Promise<void> | undefined;
  const waiters: { seq: number; resolve: () => void; reject: (error: Error) => void }[] = [];

  const failureError = () =>
    errors.unavailable(
      `The sandbox could not save changes to ${failure!.path} (${failure!.reason}). Changes already made are kept and written as soon as the disk accepts them; until then changes are refused. Free space or fix the data directory: it recovers by itself.`,
    );

  const durableAfterBarrier = () => (barrier === undefined ? writtenSeq : Math.min(writtenSeq, barrier - 1));

  const settle = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!;
      if (waiter.seq <= durableSeq) waiter.resolve();
      else if (failure) waiter.reject(failureError());
      else continue;
      waiters.splice(i, 1);
    }
  };

  const fail = (path: string, error: unknown) => {
    const reason = reasonOf(error);
    const first = failure === undefined;
    failure = { path, reason };
    sandbox.health.report("data-dir", `cannot write ${path} (${reason}); retrying every ${retryMs} ms`);
    log?.error({ path, reason }, `could not write to the data directory: ${path}: ${reason}`);
    if (first) settle();
  };
  const recovered = () => {
    if (!failure) return;
    log?.info({ path: failure.path }, "the data directory accepts writes again; pending changes are saved");
    failure = undefined;
    sandbox.health.report("data-dir", null);
  };

  /** Writes the pending records to the journal; on failure takes the file back to its last whole record. */
  const writeBatch = async () => {
    // Taken off the queue now: changes made while this batch is written wait for the next one.
    const batch = pending;
    pending = [];
    const upTo = batch[batch.length - 1]!.seq;
    const data = Buffer.concat(batch.map((p) => p.frame));
    try {
      await journal.truncate(journalBytes);
      await journal.write(data);
      await journal.datasync();
    } catch (error) {
      // Kept, in order, for the retry.
      pending = batch.concat(pending);
      fail(journalPath, error);
      return false;
    }
    journalBytes += data.length;
    journalRecords += batch.length;
    writtenSeq = Math.max(writtenSeq, upTo);
    durableSeq = durableAfterBarrier();
    return true;
  };

  /** Starts a fresh journal file: what follows `seq` goes there, so the snapshot can be written meanwhile. */
  const rotate = async (seq: number) => {
    const path = join(dir, journalName(seq + 1));
    let next: WritableFile;
    try {
      next = await files.openAppend(path);
    } catch (error) {
      fail(path, error);
      return false;
    }
    await journal.close().catch(() => undefined);
    journal = next;
    journalPath = path;
    journalBytes = await next.size();
    journalRecords = 0;
    return true;
  };

  const writeSnapshot = async (seq: number, state: ReturnType<SandboxCore["captureState"]>) => {
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
          ? Number(match[1]) <= seq && join(dir, name) !== journalPath
          : name === legacyJournalFileName;
        if (older) await files.remove(join(dir, name));
      }
    } catch (error) {
      fail(snapshotPath, error);
      return false;
    }
    snapshotBytes = bytes;
    return true;
  };

  let compacting: Promise<void> | undefined;
  /** Writes a captured snapshot in the background while the journal goes on; retried until it lands. */
  const compact = (due: { seq: number; state: ReturnType<SandboxCore["captureState"]> }) => {
    compacting = writeSnapshot(due.seq, due.state).then((ok) => {
      compacting = undefined;
      if (ok) {
        if (barrier === due.seq) barrier = undefined;
        writtenSeq = Math.max(writtenSeq, due.seq);
        durableSeq = durableAfterBarrier();
        recovered();
        settle();
      } else {
        // Retried from the same capture (a newer one, from a reset meanwhile, wins).
        snapshotDue ??= due;
        retryAt = true;
      }
      kick();
    });
  };

  /** Captures the state for a snapshot once the journal has grown enough (see `snapshotEvery`). */
  const compactIfDue = () => {
    if (compacting || snapshotDue || journalRecords < snapshotEvery) return;
    if (journalBytes * 4 < snapshotBytes - smallSnapshot) return;
    // Captured now (a point in time, read lazily); the write goes on while new changes are journaled.
    snapshotDue = { seq: appendedSeq, state: sandbox.captureState() };
  };

  const loop = async () => {
    // Never finish synchronously: `running` must be set before the `finally` below clears it.
    await Promise.resolve();
    try {
      while (!closed) {
        if (retryAt) {
          retryAt = false;
          await waitRealTime(retryMs, { unref: true });
          continue;
        }
        if (snapshotDue && !compacting) {
          const due = snapshotDue;
          snapshotDue = undefined;
          // Records from before a reset are superseded by its snapshot; later ones go to the new journal.
          if (barrier !== undefined) pending = pending.filter((p) => p.seq > due.seq);
          if (!(await rotate(due.seq))) {
            snapshotDue ??= due;
            retryAt = true;
            continue;
          }
          compact(due);
          continue;
        }
        if (pending.length === 0) {
          // Changes journaled while the last snapshot was written may already call for the next.
          compactIfDue();
          if (!snapshotDue || compacting) break;
          continue;
        }
        if (!(await writeBatch())) {
          retryAt = true;
          continue;
        }
        if (!compacting) recovered();
        settle();
        compactIfDue();
      }
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
    pending.push({ seq: record.seq, frame: encodeFrame(JSON.stringify(record)) });
    queueMicrotask(kick);
  });
  // A reset or restore replaces everything at once: the next step writes a fresh snapshot.
  const unlisten = sandbox.onStateReplaced(() => {
    const seq = ++appendedSeq;
    snapshotDue = { seq, state: sandbox.captureState() };
    barrier = seq;
    queueMicrotask(kick);
  });

  const waitFor = (target: number) =>
    new Promise<void>((resolve, reject) => {
      if (target <= durableSeq) resolve();
      else if (failure) reject(failureError());
      else {
        waiters.push({ seq: target, resolve, reject });
        kick();
      }
    });
  // A fresh directory starts from the sandbox's current state (its fixtures), written as the first snapshot.
  if (!replayed.hadSnapshot && !(await writeSnapshot(appendedSeq, sandbox.captureState()))) {
    await journal.close();
    unsubscribe();
    unlisten();
    throw new DataDirError(`${snapshotPath}: cannot write the first snapshot (${failure?.reason})`);
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
    wrap(handle) {
      return async (request) => {
        const reads = request.method === "GET" || request.method === "HEAD";
        // While the disk refuses writes, a change is refused before it is made: nothing half-applied.
        if (failure && !reads) return renderError(surfaceOf(request.path), failureError());
        const response = await handle(request);
        // Reads (health among them) go on answering from memory meanwhile.
        if (failure && reads) return response;
        // Whatever this response could have seen must be on disk before it is sent.
        try {
          await waitFor(appendedSeq);
        } catch (error) {
          // Never acknowledge a change that is not on disk.
          return renderError(surfaceOf(request.path), error, request.path);
        }
        return response;
      };
    },
    async flush() {
      await waitFor(appendedSeq);
      for (compactIfDue(); compacting || snapshotDue; compactIfDue()) {
        kick();
        await (compacting ?? new Promise<void>((resolve) => setImmediate(resolve)));
      }
    },
    async close() {
      if (closed) return;
      try {
        await waitFor(appendedSeq);
      } finally {
        closed = true;
        unsubscribe();
        unlisten();
        await running;
        await compacting;
        await journal.close();
      }
    },
  };
}

interface ReplayResult {
  hadSnapshot: boolean;
  snapshotSeq: number;
  snapshotBytes: number;
  lastSeq: number;
  records: number;
  droppedTornRecord: boolean;
}

/** Loads the NDJSON snapshot (streamed, checked against its SHA-256) into the sandbox; null when there is none. */
async function loadSnapshot(
  sandbox: SandboxCore,
  path: string,
  files: DataDirFiles,
): Promise<{ seq: number; bytes: number; now: number } | null> {
  if (!(await files.exists(path))) return null;
  // The first piece says which format the file is in; it is handed on with the rest.
  const source = files.readStream(path)[Symbol.asyncIterator]();
  const first = await source.next();
  const stream = (async function* () {
    try {
      if (!first.done) yield first.value;
      for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
    } finally {
      // Stopped early (a damaged file): close it now rather than when it is collected.
      await source.return?.();
    }
  })();
  const refuse = (why: string) =>
    new DataDirError(
      `${path}: the snapshot is damaged (${why}). Refusing to start rather than lose data: restore the file from a backup, or move the data directory away to start empty.`,
    );
  const opening = first.done ? "" : Buffer.from(first.value.subarray(0, 64)).toString("latin1");
  if (opening.startsWith(`{"format":"${compactSnapshotFormat}"`)) {
    // The secondary indexes are filed after the state is in place, while the server answers (see DeferredIndex).
    const loader = new StoreLoader(sandbox.store, false, "deferred");
    let read: Awaited<ReturnType<typeof readCompactSnapshot>>;
    try {
      read = await readCompactSnapshot(stream, loader);
    } catch (error) {
      if (error instanceof CompactSnapshotError) throw refuse(error.message);
      throw new DataDirError(`${path}: cannot read the snapshot (${reasonOf(error)})`);
    }
    sandbox.restoreLoaded(read.header, loader);
    return { seq: read.seq, bytes: read.bytes, now: read.header.clock.now };
  }
  // A snapshot of the earlier format: NDJSON state lines between a header and a checksum line.
  const hash = createHash("sha256");
  let bytes = 0;
  let seq: number | undefined;
  let trailer: { sha256?: unknown; bytes?: unknown } | undefined;
  // The state lines pass through to the loader; the first line is this file's header, the last its checksum.
  async function* stateLines(batches: AsyncIterable<string[]>): AsyncGenerator<string[]> {
    let previous: string | undefined;
    for await (const lines of batches) {
      const out: string[] = [];
      for (const line of lines) {
        if (seq === undefined) {
          const header = parseLine(line);
          if (header?.format !== snapshotFormat || typeof header.seq !== "number")
            throw refuse("no header line");
          seq = header.seq;
          continue;
        }
        if (previous !== undefined) out.push(previous);
        previous = line;
      }
      if (out.length > 0) {
        const chunk = Buffer.from(`${out.join("\n")}\n`);
        hash.update(chunk);
        bytes += chunk.length;
        yield out;
      }
    }
    trailer = previous === undefined ? undefined : (parseLine(previous) ?? undefined);
  }
  const loader = new StoreLoader(sandbox.store, false);
  let header: Awaited<ReturnType<typeof readNdjsonState>>;
  try {
    header = await readNdjsonState(stateLines(splitLines(stream)), loader);
  } catch (error) {
    if (error instanceof DataDirError) throw error;
    if (error instanceof StateStreamError) throw refuse(error.message);
    throw new DataDirError(`${path}: cannot read the snapshot (${reasonOf(error)})`);
  }
  if (trailer?.bytes !== bytes || trailer.sha256 !== hash.digest("hex"))
    throw refuse("it fails its SHA-256 checksum");
  sandbox.restoreLoaded(header, loader);
  return { seq: seq!, bytes, now: header.clock.now };
}

const parseLine = (line: string): Record<string, unknown> | null => {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

async function replay(
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
  let snapshot = await loadSnapshot(sandbox, join(dir, snapshotFileName), files);
  if (!snapshot) {
    const legacyPath = join(dir, legacySnapshotFileName);
    const legacy = names.includes(legacySnapshotFileName) ? await readSnapshotFile(legacyPath) : null;
    if (legacy) {
      try {
        sandbox.restore(legacy.state);
      } catch (error) {
        throw new DataDirError(
          `${legacyPath}: the snapshot does not hold a valid state (${(error as Error).message}).`,
        );
      }
      const now = (legacy.state as { clock?: { now?: unknown } }).clock?.now;
      snapshot = { seq: legacy.seq, bytes: 0, now: typeof now === "number" ? now : 0 };
    }
  }
  if (!snapshot) {
    for (const name of journals) {
      if ((await files.readAll(join(dir, name))).length > 0) {
        throw new DataDirError(
          `${join(dir, name)} has changes but ${join(dir, snapshotFileName)} is missing, so they cannot be replayed. Restore the snapshot from a backup, or move the data directory away to start empty.`,
        );
      }
    }
    return {
      hadSnapshot: false,
      snapshotSeq: 0,
      snapshotBytes: 0,
      lastSeq: 0,
      records: 0,
      droppedTornRecord: false,
    };
  }

  let latest = snapshot.now;
  let lastSeq = snapshot.seq;
  let records = 0;
  let droppedTornRecord = false;
  let stopped = false;
  const { store, ids } = sandbox.engine;
  for (const name of journals) {
    const path = join(dir, name);
    if (stopped) {
      // Changes made after a reset whose snapshot never reached the disk were never acknowledged.
      await files.remove(path);
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
        // A write the crash cut short was never acknowledged: drop it and carry on.
        warn(
          `${path}: dropped an incomplete last record at byte ${frame.offset} (${frame.reason}); it was never acknowledged`,
        );
        await files.truncate(path, frame.offset);
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
        warn(
          `${path}: replay stops at seq ${lastSeq}: a reset or restore after it never reached the disk, so nothing after it was acknowledged`,
        );
        await files.truncate(path, frame.offset);
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
      records += 1;
    }
  }
  sandbox.clock.resumeFrom(latest);
  return {
    hadSnapshot: true,
    snapshotSeq: snapshot.seq,
    snapshotBytes: snapshot.bytes,
    lastSeq,
    records,
    droppedTornRecord,
  };
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
