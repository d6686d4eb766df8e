// The data directory's snapshot file: the state as compact row lines (see row-codec), written in pieces and read as a stream, checked by SHA-256.
import { createHash } from "node:crypto";
import { setImmediate as yieldToRequests } from "node:timers/promises";
import type { StoreLoader } from "../../domain/store-stream.js";
import {
  LineSplitter,
  type StateCapture,
  type StateHeader,
  stateFormat,
} from "../../http/admin-api/state-stream.js";
import { RowDecoder, RowEncoder, RowLineError } from "./row-codec.js";

export const compactSnapshotFormat = "voice-sandbox-data/3";

/** About this many characters go to the file per piece. */
const pieceChars = 1024 * 1024;
/**
 * Writing gives other requests their turn after this many milliseconds of work. Short, because a change's
 * answer waits for its journal batch, whose write and sync each complete only when the loop comes round:
 * with 10 ms slices checked at 1 MB pieces, a change answered during a snapshot waited 141-334 ms (median).
 */
const sliceMs = 2;
/** The clock is read every this many rows (a read costs about as much as encoding a row). */
const rowsPerCheck = 32;

/** The last line: the SHA-256 of every byte before it. Always this many bytes, so a reader can hold them back. */
const trailerBytes = `{"sha256":"${"0".repeat(64)}"}\n`.length;
const trailer = (hex: string) => `{"sha256":"${hex}"}\n`;

/**
 * The file's text in pieces: `{"format","seq","rows"}` (`rows`: each table's row count), the state header
 * (clock, ids), then each table's line and its rows, then the checksum line. Between pieces, other requests
 * get their turn. Throws before the checksum line when a table gives other than `rows` says (a capture read
 * before), so such a file is never complete.
 */
export async function* compactSnapshot(
  seq: number,
  state: StateCapture,
  rows: Record<string, number>,
): AsyncGenerator<Buffer> {
  const hash = createHash("sha256");
  const encoder = new RowEncoder();
  let piece = `${JSON.stringify({ format: compactSnapshotFormat, seq, rows })}\n${JSON.stringify(state.header)}\n`;
  let sliceStart = performance.now();
  const out = () => {
    const bytes = Buffer.from(piece);
    hash.update(bytes);
    piece = "";
    return bytes;
  };
  for (const [table, tableRows] of state.tables) {
    piece += encoder.startTable(table);
    let written = 0;
    for (const row of tableRows) {
      piece += encoder.encode(row as Record<string, unknown>);
      written += 1;
      if (piece.length >= pieceChars) yield out();
      if (written % rowsPerCheck === 0 && performance.now() - sliceStart >= sliceMs) {
        await yieldToRequests();
        sliceStart = performance.now();
      }
    }
    if (written !== rows[table])
      throw new Error(`the capture gave ${written} rows of ${table} where the table held ${rows[table]}`);
  }
  const last = out();
  yield Buffer.concat([last, Buffer.from(trailer(hash.digest("hex")))]);
}

/** The snapshot could not be read: why, with the line when one is at fault. */
export class CompactSnapshotError extends Error {}

/**
 * Reads a compact snapshot whose first line `firstLine` has already been read as `{"format","seq"}`, from
 * `chunks` (the whole file, first line included) into `loader`. Throws CompactSnapshotError on any damage.
 */
export async function readCompactSnapshot(
  chunks: AsyncIterable<Uint8Array>,
  loader: StoreLoader,
): Promise<{ seq: number; header: StateHeader; bytes: number; rows: RowCountCheck | undefined }> {
  const hash = createHash("sha256");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const rows = new RowDecoder();
  // The last `trailerBytes` seen are held back from the hash until more arrive: they may be the checksum line.
  let held = Buffer.alloc(0);
  let bytes = 0;
  const splitter = new LineSplitter();
  let number = 0;
  let seq: number | undefined;
  let header: StateHeader | undefined;
  let checksum: string | undefined;
  /** The row counts the header gives (files written before they were kept have none), and the rows read. */
  let written: Record<string, number> | undefined;
  const read = new Map<string, number>();
  // Rows are counted in a local while one table's rows are read, and filed in `read` when the table changes.
  let counting = "";
  let counted = 0;
  const countTable = (table: string) => {
    if (counting !== "") read.set(counting, (read.get(counting) ?? 0) + counted);
    counting = table;
    counted = 0;
  };
  const fail = (why: string) => new CompactSnapshotError(`line ${number}: ${why}`);

  const readLine = (text: string) => {
    number += 1;
    if (checksum !== undefined) throw fail("data after the checksum line");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw fail("not JSON");
    }
    if (seq === undefined) {
      const first = value as { format?: unknown; seq?: unknown; rows?: unknown };
      if (first?.format !== compactSnapshotFormat || typeof first.seq !== "number")
        throw fail("no header line");
      seq = first.seq;
      if (first.rows !== undefined) {
        if (!isRowCounts(first.rows)) throw fail("the header's row counts are not counts");
        written = first.rows;
      }
      return;
    }
    if (header === undefined) {
      const state = value as Partial<StateHeader> | null;
      if (state?.format !== stateFormat || !Array.isArray(state.ids) || typeof state.clock?.now !== "number")
        throw fail("no state header");
      header = { format: stateFormat, clock: { now: state.clock.now }, ids: state.ids };
      return;
    }
    if (!Array.isArray(value) && typeof (value as { sha256?: unknown })?.sha256 === "string") {
      checksum = (value as { sha256: string }).sha256;
      return;
    }
    let row: Record<string, unknown> | undefined;
    try {
      row = rows.line(value);
      if (row !== undefined) {
        loader.add(rows.currentTable, row);
        if (rows.currentTable !== counting) countTable(rows.currentTable);
        counted += 1;
      }
    } catch (error) {
      if (error instanceof RowLineError) throw fail(error.message);
      throw fail((error as Error).message);
    }
  };

  for await (const chunk of chunks) {
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    bytes += buffer.length;
    // Hash all but the newest `trailerBytes` bytes.
    const cut = held.length + buffer.length - trailerBytes;
    if (cut >= held.length) {
      hash.update(held);
      hash.update(buffer.subarray(0, cut - held.length));
      held = Buffer.from(buffer.subarray(cut - held.length));
    } else {
      if (cut > 0) hash.update(held.subarray(0, cut));
      held = Buffer.concat([held.subarray(Math.max(0, cut)), buffer]);
    }
    let text: string;
    try {
      text = decoder.decode(buffer, { stream: true });
    } catch {
      throw fail("not UTF-8");
    }
    for (const line of splitter.push(text)) readLine(line);
  }
  if (splitter.rest() !== "") {
    number += 1;
    throw fail("the file ends inside a line: it was cut short");
  }
  countTable("");
  if (seq === undefined || header === undefined) throw fail("the file ends before its header");
  if (checksum === undefined) throw fail("no checksum line: the file was cut short");
  if (held.toString() !== trailer(hash.digest("hex")))
    throw new CompactSnapshotError("it fails its SHA-256 checksum");
  return { seq, header, bytes, rows: written && { written, read } };
}

/** The row counts a snapshot was written with, and the rows read from it per table. */
export interface RowCountCheck {
  written: Record<string, number>;
  read: Map<string, number>;
}

/** The tables whose rows read differ from the count written, as `table read of written`; empty when all match. */
export function rowCountMismatches({ written, read }: RowCountCheck): string[] {
  const tables = new Set([...Object.keys(written), ...read.keys()]);
  const out: string[] = [];
  for (const table of tables) {
    const expected = written[table] ?? 0;
    const got = read.get(table) ?? 0;
    if (got !== expected) out.push(`${table} ${got} of ${expected}`);
  }
  return out;
}

const isRowCounts = (value: unknown): value is Record<string, number> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((count) => Number.isSafeInteger(count) && (count as number) >= 0);
