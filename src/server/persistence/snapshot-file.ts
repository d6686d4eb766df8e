// The compacted state on disk: a header line (format, last journal sequence, SHA-256) and the state as JSON.
import { createHash } from "node:crypto";
import { open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";

export const snapshotFormat = "voice-sandbox-data/1";

export interface SnapshotHeader {
  format: typeof snapshotFormat;
  /** The last journal record this snapshot includes; replay skips records up to it. */
  seq: number;
  sha256: string;
  bytes: number;
}

export class DataDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataDirError";
  }
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** fsyncs a directory so a rename in it survives a crash (a no-op where directories cannot be opened). */
export async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a directory; the rename is still atomic there.
  } finally {
    await handle?.close();
  }
}

/** Writes atomically: a temporary file, fsync, rename over the old one, fsync the directory. */
export async function writeSnapshotFile(path: string, seq: number, state: unknown): Promise<void> {
  const body = JSON.stringify(state);
  const header: SnapshotHeader = {
    format: snapshotFormat,
    seq,
    sha256: sha256(body),
    bytes: Buffer.byteLength(body),
  };
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, "w");
  try {
    await handle.writeFile(`${JSON.stringify(header)}\n${body}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  await syncDirectory(dirname(path));
}

/** The snapshot at `path`, or null if there is none; any damage is a DataDirError that says what to do. */
export async function readSnapshotFile(path: string): Promise<{ seq: number; state: unknown } | null> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new DataDirError(`${path}: cannot read the snapshot (${(error as NodeJS.ErrnoException).code})`);
  }
  const refuse = (why: string) =>
    new DataDirError(
      `${path}: the snapshot is damaged (${why}). Refusing to start rather than lose data: restore the file from a backup, or move the data directory away to start empty.`,
    );
  const newline = data.indexOf(0x0a);
  if (newline < 0) throw refuse("no header line");
  let header: SnapshotHeader;
  try {
    header = JSON.parse(data.subarray(0, newline).toString("utf8")) as SnapshotHeader;
  } catch {
    throw refuse("the header is not JSON");
  }
  if (header.format !== snapshotFormat) throw refuse(`unknown format ${JSON.stringify(header.format)}`);
  let body = data.subarray(newline + 1);
  if (body.length > 0 && body[body.length - 1] === 0x0a) body = body.subarray(0, body.length - 1);
  if (body.length !== header.bytes)
    throw refuse(`${body.length} bytes of state where the header says ${header.bytes}`);
  if (sha256(body) !== header.sha256) throw refuse("the state fails its SHA-256 checksum");
  return { seq: header.seq, state: JSON.parse(body.toString("utf8")) };
}
