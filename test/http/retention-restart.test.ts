// With a data directory, what the bound dropped stays dropped: the drops are journaled, the snapshot holds none of it, and a bound lowered at a restart is applied to the state loaded.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { RecordRetention } from "../../src/engine/context/context.js";
import { snapshotFileName } from "../../src/server/persistence/layout.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;
const authorization = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;

const start = (dataDir: string, retain: RecordRetention | false, snapshotEvery?: number) =>
  serve({ port: 0, clock: "virtual", dataDir, retain, ...(snapshotEvery ? { snapshotEvery } : {}) });

async function sendMessages(running: RunningServer, count: number): Promise<string[]> {
  const sids: string[] = [];
  for (let n = 0; n < count; n++) {
    const response = await fetch(`${running.url}${base}/Messages.json`, {
      method: "POST",
      headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ To: "+15558675310", From: fixtures.acme.mainNumber, Body: `m${n}` }),
    });
    expect(response.status).toBe(201);
    sids.push(((await response.json()) as { sid: string }).sid);
  }
  // Delivered on the virtual clock; the clock moves through the admin API as a client would move it.
  const advanced = await fetch(`${running.url}/__sandbox/clock/advance`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ by: "5s" }),
  });
  expect(advanced.status).toBe(200);
  return sids;
}

const status = async (running: RunningServer, sid: string) =>
  (await fetch(`${running.url}${base}/Messages/${sid}.json`, { headers: { authorization } })).status;

describe("the bound on records with a data directory", () => {
  it("a restart does not bring back what was dropped, whatever bound it runs with", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-retain-"));
    const first = await start(dir, { maxCount: 2 });
    const sids = await sendMessages(first, 5);
    expect(await Promise.all(sids.map((sid) => status(first, sid)))).toEqual([404, 404, 404, 200, 200]);
    await first.close();

    // Every record kept this time: only what the journal says is there comes back.
    const second = await start(dir, false);
    expect(await Promise.all(sids.map((sid) => status(second, sid)))).toEqual([404, 404, 404, 200, 200]);
    const list = await fetch(`${second.url}/carrier/v1/messages`, {
      headers: { authorization: `Bearer ${fixtures.carrierKey}` },
    });
    expect(((await list.json()) as { meta: { total: number } }).meta.total).toBe(2);
    await second.close();
  });

  // Skipped until a snapshot's capture is isolated from rows the bound drops while it is written: the row-count
  // check then refuses the snapshot ("the capture gave N rows of messages where the table held M") and retries.
  it("compacts the drops away: the snapshot holds no dropped record", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-retain-"));
    const running = await start(dir, { maxCount: 1 }, 1);
    const sids = await sendMessages(running, 3);
    await running.persistence!.flush();
    // The messages table's lines (carrier events still tell of the dropped ones: the event log is history).
    const snapshot = readFileSync(join(dir, snapshotFileName), "utf8");
    const from = snapshot.indexOf('{"table":"messages"}');
    const messages = snapshot.slice(from, snapshot.indexOf('{"table":', from + 1));
    expect(from).toBeGreaterThan(0);
    for (const sid of sids.slice(0, 2)) expect(messages).not.toContain(sid);
    expect(messages).toContain(sids[2]);
    await running.close();
  });

  it("applies a bound lowered since the state was written once the state is loaded, and journals it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-retain-"));
    const first = await start(dir, false);
    const sids = await sendMessages(first, 4);
    await first.close();

    const second = await start(dir, { maxCount: 1 });
    // The excess goes between requests once the restart's indexes are filed.
    await second.persistence!.indexesBuilt;
    for (let i = 0; i < 200 && second.sandbox.store.messages.size > 1; i++) await sleep(10);
    expect(await Promise.all(sids.map((sid) => status(second, sid)))).toEqual([404, 404, 404, 200]);
    await second.close();

    const third = await start(dir, false);
    expect(await Promise.all(sids.map((sid) => status(third, sid)))).toEqual([404, 404, 404, 200]);
    await third.close();
  });
});
