// The data directory: replay after a restart, torn last records, damaged files, compaction, ids and time.
import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ndjsonState } from "../../src/http/admin-api/state-stream.js";
import { createSandboxCore, type SandboxCore } from "../../src/sandbox.js";
import { DataDirError, openDataDir } from "../../src/server/persistence/data-dir.js";
import { encodeFrame } from "../../src/server/persistence/frame.js";
import { snapshotFileName } from "../../src/server/persistence/layout.js";
import { createAccount, start } from "../support/data-dir.js";
import { fixtures } from "../support/fixtures.js";

const freshDir = () => mkdtempSync(join(tmpdir(), "vs-data-"));
/** The journal file changes go to now: the newest one (compaction starts a new one). */
const journalPath = (dir: string) =>
  join(
    dir,
    readdirSync(dir)
      .filter((name) => /^journal\.\d+\.log$/.test(name))
      .sort()
      .at(-1)!,
  );

describe("data directory", () => {
  it("replays every acknowledged change after a restart, with ids and time going on", async () => {
    const dir = freshDir();
    const first = await start(dir);
    const a = await createAccount(first.handle, "First");
    await first.sandbox.clock.advance(60_000);
    const b = await createAccount(first.handle, "Second");
    first.sandbox.store.transact(() => first.sandbox.store.accounts.delete(a));
    await first.persistence.flush();
    const expected = JSON.stringify(first.sandbox.snapshot());
    const timeBefore = first.sandbox.clock.now();
    // No close: as if the process died here.

    const second = await start(dir);
    expect(second.persistence.replayed.records).toBe(3);
    expect(JSON.stringify(second.sandbox.snapshot().store)).toBe(JSON.stringify(JSON.parse(expected).store));
    expect(second.sandbox.store.accounts.has(b)).toBe(true);
    expect(second.sandbox.clock.now()).toBeGreaterThanOrEqual(timeBefore);
    const c = await createAccount(second.handle, "Third");
    expect([a, b]).not.toContain(c);
    await second.persistence.close();
  });

  it("drops a torn last record with a warning and keeps the rest", async () => {
    const dir = freshDir();
    const first = await start(dir);
    const kept = await createAccount(first.handle, "Kept");
    await first.persistence.close();
    const torn = encodeFrame(JSON.stringify({ seq: 99, ids: [1, 2, 3, 4], now: 0, changes: [] }));
    appendFileSync(journalPath(dir), torn.subarray(0, torn.length - 5));

    const warnings: string[] = [];
    const second = await start(dir, warnings);
    expect(second.persistence.replayed.droppedTornRecord).toBe(true);
    expect(warnings.join("\n")).toMatch(/dropped an incomplete last record/);
    expect(second.sandbox.store.accounts.has(kept)).toBe(true);
    // The torn bytes are gone, so later records append cleanly.
    const after = await createAccount(second.handle, "After");
    await second.persistence.close();
    const third = await start(dir);
    expect(third.sandbox.store.accounts.has(after)).toBe(true);
    expect(third.persistence.replayed.droppedTornRecord).toBe(false);
    await third.persistence.close();
  });

  it("refuses to start on a damaged snapshot, saying what to do", async () => {
    const dir = freshDir();
    const first = await start(dir);
    await first.persistence.close();
    const path = join(dir, snapshotFileName);
    writeFileSync(path, readFileSync(path, "utf8").replace("Acme Support", "Acme Suppoxt"));
    const failure = await start(dir).catch((e) => e);
    expect(failure).toBeInstanceOf(DataDirError);
    expect(failure.message).toMatch(/snapshot is damaged \(.*SHA-256 checksum\)/);
    expect(failure.message).toMatch(/Refusing to start/);
  });

  it("refuses to start on a snapshot cut short, naming the line", async () => {
    const dir = freshDir();
    const first = await start(dir);
    await first.persistence.close();
    const path = join(dir, snapshotFileName);
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.slice(0, Math.floor(text.length / 2)));
    const failure = await start(dir).catch((e) => e);
    expect(failure).toBeInstanceOf(DataDirError);
    expect(failure.message).toMatch(/snapshot is damaged \(line \d+: .*cut short\)/);
  });

  it("still reads a snapshot in the earlier NDJSON format, and writes the compact one from then on", async () => {
    const dir = freshDir();
    const source = await start(dir);
    const made = await createAccount(source.handle, "Earlier");
    await source.persistence.close();
    // The earlier format: a header line, the state as GET /__sandbox/state gives it, a checksum line.
    let state = "";
    for await (const piece of ndjsonState(source.sandbox.captureState())) state += piece;
    const digest = createHash("sha256").update(state).digest("hex");
    const path = join(dir, snapshotFileName);
    writeFileSync(
      path,
      `{"format":"voice-sandbox-data/2","seq":1}\n${state}${JSON.stringify({ sha256: digest, bytes: Buffer.byteLength(state) })}\n`,
    );
    const second = await start(dir, [], 1);
    expect(second.sandbox.store.accounts.get(made)?.name).toBe("Earlier");
    await createAccount(second.handle, "Later");
    await second.persistence.flush();
    await second.persistence.close();
    expect(readFileSync(path, "utf8")).toMatch(/^\{"format":"voice-sandbox-data\/3"/);
    const third = await start(dir);
    expect(JSON.stringify(third.sandbox.snapshot())).toBe(JSON.stringify(second.sandbox.snapshot()));
    await third.persistence.close();
  });

  it("refuses to start on a damaged record in the middle of the journal", async () => {
    const dir = freshDir();
    const first = await start(dir);
    await createAccount(first.handle, "One");
    await createAccount(first.handle, "Two");
    await first.persistence.close();
    const path = journalPath(dir);
    const bytes = readFileSync(path);
    bytes[12] = bytes[12]! ^ 0xff;
    writeFileSync(path, bytes);
    const failure = await start(dir).catch((e) => e);
    expect(failure).toBeInstanceOf(DataDirError);
    expect(failure.message).toMatch(/fails its checksum and \d+ bytes follow it/);
  });

  it("compacts the journal into a snapshot every N records and on reset", async () => {
    const dir = freshDir();
    const first = await start(dir, [], 3);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await createAccount(first.handle, `N${i}`));
    await first.persistence.flush();
    // Compaction runs beside the journal, so a few changes made while it wrote may remain to replay.
    expect(readFileSync(journalPath(dir)).length).toBeLessThan(6 * 1024);
    // A restart: the first server is gone before the second opens the directory (two at once would race).
    await first.persistence.close();
    const second = await start(dir);
    expect(second.persistence.replayed.snapshotSeq).toBeGreaterThan(0);
    expect(second.persistence.replayed.records).toBeLessThan(7);
    for (const id of ids) expect(second.sandbox.store.accounts.has(id)).toBe(true);
    await second.handle({
      method: "POST",
      path: "/__sandbox/reset",
      query: "",
      headers: { "content-type": "application/json" },
      body: '{"to":"empty"}',
    });
    await second.persistence.close();
    expect(readFileSync(journalPath(dir)).length).toBe(0);
    const third = await start(dir);
    expect(third.sandbox.store.accounts.size).toBe(0);
    await third.persistence.close();
  });

  it("answers lists and writes while a restart's indexes are still being filed as it does once they are", async () => {
    const dir = freshDir();
    const sandbox = createSandboxCore({ clock: "virtual" });
    const account = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;
    const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;
    const get = (handle: SandboxCore["handle"], path: string, query: string, carrier = false) =>
      handle({
        method: "GET",
        path,
        query,
        headers: { authorization: carrier ? `Bearer ${fixtures.carrierKey}` : account },
        body: "",
      }).then((response) => `${response.status} ${String(response.body)}`);
    const placed = await sandbox.handle({
      method: "POST",
      path: `${base}/Calls.json`,
      query: "",
      headers: { authorization: account, "content-type": "application/x-www-form-urlencoded" },
      body: "To=%2B15558675310&From=%2B14155550100&Twiml=%3CResponse%2F%3E",
    });
    expect(placed.status).toBe(201);
    const template = sandbox.store.calls.all().at(-1)!;
    const statuses = ["completed", "busy", "no-answer", "failed"] as const;
    // Enough rows that filing them takes many steps.
    for (let n = 0; n < 60_000; n++)
      sandbox.store.calls.insert({
        ...template,
        sid: `CA${n.toString(16).padStart(32, "0")}`,
        to: `+1555000${String(n % 1000).padStart(4, "0")}`,
        status: statuses[n % statuses.length]!,
        created_at: template.created_at + n,
      });
    await (await openDataDir(sandbox, dir)).close();

    const restarted = await start(dir);
    // Nothing has been filed yet: the first requests below run before the background filing's first step.
    expect(restarted.sandbox.store.calls.indexesPending).toBe(true);
    const reads = [
      () => get(restarted.handle, `${base}/Calls.json`, "Status=busy&PageSize=5"),
      () => get(restarted.handle, "/carrier/v1/phone_calls", "filter[status]=no-answer&page[size]=5", true),
      () => get(restarted.handle, `${base}/Calls.json`, "To=%2B15550000007&PageSize=3"),
      () => get(restarted.handle, "/carrier/v1/phone_calls", "filter[status]=canceled", true),
    ];
    const during = [await reads[0]!()];
    // A change while the rest are still being filed lands in them.
    const write = await restarted.handle({
      method: "POST",
      path: `${base}/Calls/${template.sid}.json`,
      query: "",
      headers: { authorization: account, "content-type": "application/x-www-form-urlencoded" },
      body: "Status=canceled",
    });
    expect(`${write.status} ${String(write.body)}`).toMatch(/^200 .*"status":"canceled"/);
    for (const read of reads.slice(1)) during.push(await read());
    await restarted.persistence.indexesBuilt;
    expect(restarted.sandbox.store.calls.indexesPending).toBe(false);
    const after: string[] = [];
    for (const read of reads) after.push(await read());
    expect(during).toEqual(after);
    expect(after[0]).toMatch(/^200 .*"status":"busy"/);
    expect(after[3]).toContain(template.sid);
    // The same answers as the server that wrote the directory.
    expect(after[1]).toBe(
      await get(sandbox.handle, "/carrier/v1/phone_calls", "filter[status]=no-answer&page[size]=5", true),
    );
    await restarted.persistence.close();
  });
});
