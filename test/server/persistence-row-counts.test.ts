// Row counts in the data directory: a restart that would load fewer rows than were acknowledged refuses, loudly, with every file left as it was; a capture read short is never written; a journal started on a torn file keeps only its whole records.
import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSandboxCore, type SandboxCore } from "../../src/sandbox.js";
import { compactSnapshot } from "../../src/server/persistence/compact-snapshot.js";
import { DataDirError } from "../../src/server/persistence/data-dir.js";
import { encodeFrame } from "../../src/server/persistence/frame.js";
import { journalName, snapshotFileName } from "../../src/server/persistence/layout.js";
import { exited, startServe } from "../support/cli-process.js";
import { createAccount, start } from "../support/data-dir.js";
import { fixtures } from "../support/fixtures.js";

const freshDir = () => mkdtempSync(join(tmpdir(), "vs-rows-"));

/** Every file of `dir` with its bytes' SHA-256: equal before and after means nothing was changed. */
const contents = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [
        name,
        createHash("sha256")
          .update(readFileSync(join(dir, name)))
          .digest("hex"),
      ]),
  );

/** `text` (a compact snapshot) with its first line changed by `edit` and its checksum line made to match. */
function rewriteHeader(text: string, edit: (header: Record<string, unknown>) => void): string {
  const lines = text.split("\n");
  const header = JSON.parse(lines[0]!) as Record<string, unknown>;
  edit(header);
  lines[0] = JSON.stringify(header);
  // Drop the old checksum line (the last line before the final newline) and write a fresh one.
  const body = `${lines.slice(0, -2).join("\n")}\n`;
  return `${body}{"sha256":"${createHash("sha256").update(body).digest("hex")}"}\n`;
}

/** A compact snapshot of `sandbox` as it is, at journal sequence `seq`. */
async function snapshotText(sandbox: SandboxCore, seq: number): Promise<string> {
  const state = sandbox.captureState();
  const rows = Object.fromEntries(state.tables.map(([name]) => [name, sandbox.store[name].size]));
  let text = "";
  for await (const piece of compactSnapshot(seq, state, rows)) text += piece.toString();
  return text;
}

describe("row counts in the data directory", () => {
  it("refuses a snapshot whose checksum passes but which holds fewer rows than it was written with", async () => {
    const dir = freshDir();
    const first = await start(dir);
    await createAccount(first.handle, "Kept");
    await first.persistence.close();
    const path = join(dir, snapshotFileName);
    const text = readFileSync(path, "utf8");
    const written = (JSON.parse(text.split("\n")[0]!) as { rows: Record<string, number> }).rows;
    // The first snapshot holds the fixtures' two accounts; the one created since is in the journal.
    expect(written.accounts).toBe(2);
    writeFileSync(
      path,
      rewriteHeader(text, (header) => {
        (header.rows as Record<string, number>).accounts! += 2;
      }),
    );
    const before = contents(dir);

    const failure = await start(dir).catch((error) => error);
    expect(failure).toBeInstanceOf(DataDirError);
    expect(failure.message).toContain(path);
    expect(failure.message).toMatch(
      /does not hold the rows the sandbox acknowledged \(rows found of rows written: accounts 2 of 4\)/,
    );
    expect(failure.message).toMatch(/nothing in the data directory was changed/);
    expect(contents(dir)).toEqual(before);

    // The command line says so and exits non-zero, and leaves the files as they were.
    const server = startServe(["--port", "0", "--data-dir", dir]);
    expect(await exited(server.child)).toBe(1);
    expect(server.output()).toMatch(/cannot load the data directory\n.*accounts 2 of 4.*Refusing to start/);
    expect(contents(dir)).toEqual(before);
  });

  it("refuses a replay that ends with fewer rows than the last acknowledged change left", async () => {
    const dir = freshDir();
    const first = await start(dir);
    for (const name of ["One", "Two", "Three"]) await createAccount(first.handle, name);
    await first.persistence.close();
    // What a snapshot retried from a spent capture used to be: every table empty, a valid checksum, and no
    // row counts (as files written before they were kept), with the journal's records after it.
    const empty = createSandboxCore({ clock: "virtual", fixtures: false, carrierKey: fixtures.carrierKey });
    const path = join(dir, snapshotFileName);
    writeFileSync(
      path,
      rewriteHeader(await snapshotText(empty, 0), (header) => {
        delete header.rows;
      }),
    );
    // A torn last record, which a start that goes ahead would cut off: here it must stay.
    const journal = join(dir, journalName(1));
    const torn = encodeFrame(JSON.stringify({ seq: 4, ids: [1, 2, 3, 4], now: 0, changes: [] }));
    appendFileSync(journal, torn.subarray(0, torn.length - 3));
    const before = contents(dir);

    const warnings: string[] = [];
    const failure = await start(dir, warnings).catch((error) => error);
    expect(failure).toBeInstanceOf(DataDirError);
    expect(failure.message).toMatch(
      /replaying the snapshot and journals up to seq 3 \(.*journal\.000000000001\.log\) does not hold the rows the sandbox acknowledged \(rows found of rows written: \d+ of \d+\)/,
    );
    expect(warnings).toEqual([]);
    expect(contents(dir)).toEqual(before);
  });

  it("never writes a capture whose rows were already read", async () => {
    const sandbox = createSandboxCore({ clock: "virtual" });
    const state = sandbox.captureState();
    const rows = Object.fromEntries(state.tables.map(([name]) => [name, sandbox.store[name].size]));
    for (const [, tableRows] of state.tables) for (const _ of tableRows);
    const pieces: Buffer[] = [];
    const writing = (async () => {
      for await (const piece of compactSnapshot(1, state, rows)) pieces.push(piece);
    })();
    await expect(writing).rejects.toThrow(/the capture gave 0 rows of accounts where the table held 2/);
    // Nothing with a checksum line came out.
    expect(Buffer.concat(pieces).toString()).not.toContain("sha256");
  });

  it("starts a journal on a file a failed write left torn bytes in after its whole records only", async () => {
    const dir = freshDir();
    const first = await start(dir, [], 3);
    const kept = [await createAccount(first.handle, "A")];
    // The journal the first compaction starts (after record 3) already ends in half a record.
    const torn = encodeFrame(JSON.stringify({ seq: 4, ids: [1, 2, 3, 4], now: 0, changes: [] }));
    writeFileSync(join(dir, journalName(4)), torn.subarray(0, torn.length >> 1));
    for (const name of ["B", "C", "D", "E"]) kept.push(await createAccount(first.handle, name));
    await first.persistence.flush();
    await first.persistence.close();
    const warnings: string[] = [];
    const second = await start(dir, warnings);
    expect(warnings).toEqual([]);
    for (const sid of kept) expect(second.sandbox.store.accounts.has(sid)).toBe(true);
    await second.persistence.close();
  });
});
