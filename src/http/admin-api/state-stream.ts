// The whole state as a stream: NDJSON (a header line, one line per row, a closing line) or the snapshot's JSON, written piece by piece.
import { setImmediate as yieldToRequests } from "node:timers/promises";
import type { IdGeneratorState } from "../../domain/ids.js";
import { RowRefused, type StoreCapture, type StoreLoader } from "../../domain/store-stream.js";

export const stateFormat = "voice-sandbox/1";

/** What a snapshot holds besides the rows. */
export interface StateHeader {
  format: typeof stateFormat;
  clock: { now: number };
  ids: IdGeneratorState;
}

/** A point-in-time state: its header and every table's rows, captured at once and read lazily. */
export interface StateCapture {
  header: StateHeader;
  tables: StoreCapture;
}

/** About this many characters go out per piece; between pieces other requests get their turn. */
const pieceChars = 256 * 1024;

/**
 * NDJSON: `{"format","clock","ids"}`, then `{"table","row"}` per row, then `{"end":true,"rows":N}`, so a
 * reader can tell a complete stream from a cut one.
 */
export async function* ndjsonState(state: StateCapture): AsyncGenerator<string> {
  let piece = `${JSON.stringify(state.header)}\n`;
  let rows = 0;
  for (const [table, tableRows] of state.tables) {
    const prefix = `{"table":${JSON.stringify(table)},"row":`;
    for (const row of tableRows) {
      piece += `${prefix}${JSON.stringify(row)}}\n`;
      rows += 1;
      if (piece.length >= pieceChars) {
        yield piece;
        piece = "";
        await yieldToRequests();
      }
    }
  }
  yield `${piece}{"end":true,"rows":${rows}}\n`;
}

/** The same JSON text as `JSON.stringify(sandbox.snapshot())`, written piece by piece. */
export async function* jsonState(state: StateCapture): AsyncGenerator<string> {
  const { format, clock, ids } = state.header;
  let piece = `{"format":${JSON.stringify(format)},"clock":${JSON.stringify(clock)},"ids":${JSON.stringify(ids)},"store":{`;
  let firstTable = true;
  for (const [table, tableRows] of state.tables) {
    piece += `${firstTable ? "" : ","}${JSON.stringify(table)}:[`;
    firstTable = false;
    let firstRow = true;
    for (const row of tableRows) {
      piece += `${firstRow ? "" : ","}${JSON.stringify(row)}`;
      firstRow = false;
      if (piece.length >= pieceChars) {
        yield piece;
        piece = "";
        await yieldToRequests();
      }
    }
    piece += "]";
  }
  yield `${piece}}}`;
}

/** A stream that cannot be read as a state, naming the line at fault. */
export class StateStreamError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = "StateStreamError";
  }
}

/**
 * Cuts text that arrives in pieces into lines (without their newline). A line spread over many pieces is
 * joined once, when its newline arrives: splitting the unfinished line again with every piece made one 8 MB
 * line cost 321 ms in 64 KB pieces (31 ms in 1 MB ones).
 */
export class LineSplitter {
  private parts: string[] = [];
  private waiting = 0;

  /** The lines `text` completes, in order; what follows its last newline waits for the next piece. */
  push(text: string): string[] {
    if (!text.includes("\n")) {
      if (text !== "") {
        this.parts.push(text);
        this.waiting += text.length;
      }
      return [];
    }
    const lines = text.split("\n");
    const tail = lines.pop()!;
    if (this.parts.length > 0) {
      this.parts.push(lines[0]!);
      lines[0] = this.parts.join("");
    }
    this.parts = tail === "" ? [] : [tail];
    this.waiting = tail.length;
    return lines;
  }

  /** How many characters wait for their newline. */
  get pending(): number {
    return this.waiting;
  }

  /** What came after the last newline ("" when the text ended with one). */
  rest(): string {
    return this.parts.join("");
  }
}

/**
 * Splits a byte stream into lines (without their newline), handed over a chunk's worth at a time: one step
 * per line cost as much as parsing it. A line longer than `maxLine` bytes is refused.
 */
export async function* splitLines(
  chunks: AsyncIterable<Uint8Array | string>,
  maxLine = 64 * 1024 * 1024,
): AsyncGenerator<string[]> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const splitter = new LineSplitter();
  let line = 0;
  // Read by hand rather than with for-await: stopping early must not destroy the source, which the
  // caller may still drain (a refused upload is read to its end so the client hears the refusal).
  const source = chunks[Symbol.asyncIterator]();
  for (let next = await source.next(); !next.done; next = await source.next()) {
    const chunk = next.value;
    let text: string;
    try {
      text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    } catch {
      throw new StateStreamError(line + 1, "the stream is not UTF-8");
    }
    const lines = splitter.push(text);
    line += lines.length;
    if (splitter.pending > maxLine)
      throw new StateStreamError(line + 1, `a line longer than ${maxLine} bytes`);
    if (lines.length > 0) yield lines;
  }
  const rest = splitter.rest();
  if (rest !== "") yield [rest];
}

/**
 * Reads an NDJSON state into `loader` (which leaves the live state alone), checking every line; resolves
 * with the header once the closing line is read. A malformed line, a row that is not valid, or a stream
 * that stops before its closing line is a StateStreamError naming the line.
 */
export async function readNdjsonState(
  batches: AsyncIterable<string[]>,
  loader: StoreLoader,
): Promise<StateHeader> {
  let number = 0;
  let header: StateHeader | undefined;
  let ended = false;
  let sinceYield = 0;
  let lastYield = performance.now();
  for await (const batch of batches)
    for (const text of batch) {
      number += 1;
      if (ended) throw new StateStreamError(number, "data after the closing line");
      if (text.trim() === "") throw new StateStreamError(number, "an empty line");
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new StateStreamError(number, `not JSON (${(error as Error).message})`);
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw new StateStreamError(number, "not a JSON object");
      }
      const record = value as Record<string, unknown>;
      if (!header) {
        if (
          record.format !== stateFormat ||
          !Array.isArray(record.ids) ||
          typeof (record.clock as { now?: unknown })?.now !== "number"
        ) {
          throw new StateStreamError(
            number,
            `the first line must be the header {"format":"${stateFormat}","clock":{"now":...},"ids":[...]} as GET /__sandbox/state gives`,
          );
        }
        header = {
          format: stateFormat,
          clock: { now: (record.clock as { now: number }).now },
          ids: record.ids as IdGeneratorState,
        };
        continue;
      }
      if (record.end === true) {
        if (record.rows !== loader.rows) {
          throw new StateStreamError(
            number,
            `the closing line counts ${String(record.rows)} rows but ${loader.rows} came before it`,
          );
        }
        ended = true;
        continue;
      }
      if (typeof record.table !== "string" || !("row" in record)) {
        throw new StateStreamError(number, 'a row line must be {"table":"<name>","row":{...}}');
      }
      try {
        loader.add(record.table, record.row);
      } catch (error) {
        if (error instanceof RowRefused) throw new StateStreamError(number, error.message);
        throw error;
      }
      // Validating is the slow part: give other requests their turn every ~10 ms. The clock is read every 8
      // rows, not 64: while V8 marks a large heap it has each allocation do some of the marking, and at 1M
      // records 64 rows then took up to 470 ms (measured); 8 rows stay within a marking step or two.
      if (++sinceYield >= 8) {
        sinceYield = 0;
        if (performance.now() - lastYield >= 10) {
          await yieldToRequests();
          lastYield = performance.now();
        }
      }
    }
  if (!header) throw new StateStreamError(number + 1, "the stream is empty; expected the header line");
  if (!ended) {
    throw new StateStreamError(
      number + 1,
      'the stream ends without its closing line {"end":true,...}: it was cut short',
    );
  }
  return header;
}

/** Finishes building what `loader` read, giving other requests their turn at least every ~10 ms. */
export function finishLoading(loader: StoreLoader): Promise<void> {
  return runInSlices(loader.finish());
}

/** Runs `steps` to the end, giving other requests their turn at least every ~10 ms. */
export async function runInSlices(steps: Iterable<unknown>): Promise<void> {
  let sliceStart = performance.now();
  for (const _step of steps) {
    if (performance.now() - sliceStart >= 10) {
      await yieldToRequests();
      sliceStart = performance.now();
    }
  }
}
