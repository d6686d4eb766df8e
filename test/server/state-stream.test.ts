// Snapshots stream: a 100,000-record state goes out and back in (and through a SIGKILL restart) byte for byte, and a cut or malformed stream is refused by line, changing nothing.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxCore } from "../../src/sandbox.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { exited, startServe } from "../support/cli-process.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const records = 100_000;
const ndjson = "application/x-ndjson";
const basic = `Basic ${Buffer.from(acmeAuth.basic.join(":")).toString("base64")}`;

/** Fills the store with `count` calls shaped like one placed through the API. */
async function fillCalls(sandbox: SandboxCore, count: number) {
  const placed = await sandbox.handle({
    method: "POST",
    path: `/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`,
    query: "",
    headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
    body: "To=%2B15558675310&From=%2B14155550100&Twiml=%3CResponse%2F%3E",
  });
  expect(placed.status).toBe(201);
  const template = sandbox.store.calls.all()[0]!;
  for (let n = 0; n < count - 1; n++) {
    sandbox.store.calls.insert({
      ...template,
      sid: `CA${n.toString(16).padStart(32, "0")}`,
      to: `+1555${n}`,
    });
  }
}

const exportState = async (url: string) => {
  const response = await fetch(`${url}/__sandbox/state`, { headers: { accept: ndjson } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe(ndjson);
  return response.text();
};
const importState = (url: string, body: string) =>
  fetch(`${url}/__sandbox/state`, { method: "PUT", headers: { "content-type": ndjson }, body });

describe("streamed snapshots", () => {
  let source: RunningServer;
  let target: RunningServer;
  let exported: string;

  beforeAll(async () => {
    source = await serve({ port: 0, clock: "virtual" });
    target = await serve({ port: 0, clock: "virtual" });
    await fillCalls(source.sandbox, records);
    exported = await exportState(source.url);
  }, 120_000);
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  it("exports NDJSON (header, a line per row, closing line) and imports it back byte for byte", async () => {
    const lines = exported.trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({
      format: "voice-sandbox/1",
      clock: { now: expect.any(Number) },
    });
    expect(JSON.parse(lines.at(-1)!)).toEqual({ end: true, rows: lines.length - 2 });
    expect(lines.filter((line) => line.startsWith('{"table":"calls"')).length).toBe(records);
    const imported = await importState(target.url, exported);
    expect(imported.status).toBe(200);
    expect(await imported.json()).toEqual({ restored: true });
    expect(await exportState(target.url)).toBe(exported);
    expect(target.sandbox.store.calls.size).toBe(records);
  }, 120_000);

  it("streams the JSON snapshot as the same text the whole-state snapshot gives", async () => {
    const response = await fetch(`${source.url}/__sandbox/state`);
    expect(await response.text()).toBe(JSON.stringify(source.sandbox.snapshot()));
  }, 120_000);

  it("refuses a cut, malformed or invalid stream by line and keeps the state before it whole", async () => {
    const before = await exportState(target.url);
    // A small valid stream to spoil: the header, 300 rows, and a closing line that counts them.
    const lines = [...exported.split("\n").slice(0, 301), '{"end":true,"rows":300}', ""];
    const cases: [string, RegExp][] = [
      [lines.slice(0, 200).join("\n"), /line 201: the stream ends without its closing line/],
      [
        [...lines.slice(0, 301), '{"end":true,"rows":7}'].join("\n"),
        /line 302: the closing line counts 7 rows but 300/,
      ],
      [[...lines.slice(0, 3), "{not json", ...lines.slice(4)].join("\n"), /line 4: not JSON/],
      [
        [...lines.slice(0, 2), '{"table":"calls","row":{"sid":"CA1"}}', ...lines.slice(3)].join("\n"),
        /line 3: not a valid calls row/,
      ],
      [
        [...lines.slice(0, 2), '{"table":"nope","row":{}}', ...lines.slice(3)].join("\n"),
        /line 3: unknown table "nope"/,
      ],
      ['{"format":"other"}\n', /line 1: the first line must be the header/],
    ];
    for (const [body, reason] of cases) {
      const refused = await importState(target.url, body);
      expect(refused.status).toBe(422);
      const error = (await refused.json()).error;
      expect(error.message).toMatch(/refused and nothing changed/);
      expect(error.message).toMatch(reason);
    }
    expect(await exportState(target.url)).toBe(before);
  }, 120_000);

  it("keeps a 100,000-record state byte for byte across a SIGKILL restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "vs-stream-"));
    const args = ["--port", "0", "--data-dir", dataDir, "--clock", "virtual"];
    let server = startServe(args);
    let url = await server.listening;
    expect((await importState(url, exported)).status).toBe(200);
    // A change after the import, acknowledged, lands in the journal.
    const created = await fetch(`${url}/carrier/v1/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${fixtures.carrierKey}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify({ data: { type: "account", attributes: { name: "After import" } } }),
    });
    expect(created.status).toBe(201);
    const before = await exportState(url);
    server.child.kill("SIGKILL");
    await exited(server.child);
    server = startServe(args);
    url = await server.listening;
    try {
      expect(await exportState(url)).toBe(before);
    } finally {
      server.child.kill("SIGKILL");
      await exited(server.child);
    }
  }, 120_000);
});
