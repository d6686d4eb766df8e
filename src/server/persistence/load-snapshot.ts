// Reading the snapshot at a restart: the compact format, or the NDJSON one of earlier versions, each checked against its SHA-256.
import { createHash } from "node:crypto";
import { StoreLoader } from "../../domain/store-stream.js";
import { readNdjsonState, StateStreamError, splitLines } from "../../http/admin-api/state-stream.js";
import type { SandboxCore } from "../../sandbox.js";
import {
  CompactSnapshotError,
  compactSnapshotFormat,
  readCompactSnapshot,
  rowCountMismatches,
} from "./compact-snapshot.js";
import type { DataDirFiles } from "./files.js";
import { reasonOf } from "./layout.js";
import { DataDirError } from "./snapshot-file.js";

/** The format of snapshots written before the compact one, still read. */
const snapshotFormat = "voice-sandbox-data/2";

/** What a loaded snapshot tells replay: its journal sequence, its size and its sandbox time. */
export interface LoadedSnapshot {
  seq: number;
  bytes: number;
  now: number;
}

/** Loads the NDJSON snapshot (streamed, checked against its SHA-256) into the sandbox; null when there is none. */
export async function loadSnapshot(
  sandbox: SandboxCore,
  path: string,
  files: DataDirFiles,
): Promise<LoadedSnapshot | null> {
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
  if (opening.startsWith(`{"format":"${compactSnapshotFormat}"`))
    return loadCompactSnapshot(sandbox, path, stream, refuse);
  return loadEarlierSnapshot(sandbox, path, stream, refuse);
}

/** The compact format: row lines, its secondary indexes left to be filed once the state is in place. */
async function loadCompactSnapshot(
  sandbox: SandboxCore,
  path: string,
  stream: AsyncIterable<Uint8Array>,
  refuse: (why: string) => DataDirError,
): Promise<LoadedSnapshot> {
  // The secondary indexes are filed after the state is in place, while the server answers (see DeferredIndex).
  const loader = new StoreLoader(sandbox.store, false, "deferred");
  let read: Awaited<ReturnType<typeof readCompactSnapshot>>;
  try {
    read = await readCompactSnapshot(stream, loader);
  } catch (error) {
    if (error instanceof CompactSnapshotError) throw refuse(error.message);
    throw new DataDirError(`${path}: cannot read the snapshot (${reasonOf(error)})`);
  }
  const mismatches = read.rows ? rowCountMismatches(read.rows) : [];
  if (mismatches.length > 0) throw new DataDirError(fewerRows(path, "the snapshot", mismatches.join(", ")));
  sandbox.restoreLoaded(read.header, loader);
  return { seq: read.seq, bytes: read.bytes, now: read.header.clock.now };
}

/** A snapshot of the earlier format: NDJSON state lines between a header and a checksum line. */
async function loadEarlierSnapshot(
  sandbox: SandboxCore,
  path: string,
  stream: AsyncIterable<Uint8Array>,
  refuse: (why: string) => DataDirError,
): Promise<LoadedSnapshot> {
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

/**
 * The refusal when the files hold fewer rows than the state they were written from (`what` names which part,
 * `counts` says how many of each were found): never a start with rows silently gone.
 */
export const fewerRows = (path: string, what: string, counts: string) =>
  `${path}: ${what} does not hold the rows the sandbox acknowledged (rows found of rows written: ${counts}), though every checksum passes. Refusing to start rather than start with data missing; nothing in the data directory was changed. Restore the data directory from a backup (or keep a copy of it to look into), or move it away to start empty.`;
