// The standalone server: API prefixes on the fast path, other pages through Express, and the CLI's start-up checks.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { fixtures } from "../support/fixtures.js";

const run = promisify(execFile);

describe("standalone server", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await serve({ port: 0 });
  });
  afterAll(async () => running.close());

  it("serves the account API to the twilio client on a real port", async () => {
    const client = twilio(fixtures.acme.sid, fixtures.acme.authToken);
    client.api.baseUrl = running.url;
    const numbers = await client.incomingPhoneNumbers.list();
    expect(numbers.map((n) => n.phoneNumber)).toEqual([fixtures.acme.mainNumber]);
  });

  it("runs on the real clock by default and serves a landing page through Express", async () => {
    const health = await (await fetch(`${running.url}/__sandbox/health`)).json();
    expect(health.clock.mode).toBe("real");
    const landing = await fetch(`${running.url}/`);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toMatch(/voice-sandbox/);
    expect((await fetch(`${running.url}/nothing-here`)).status).toBe(404);
  });
});

describe("standalone server URLs handed out in webhooks", () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await serve({ port: 0, clock: "virtual" });
  });
  afterAll(async () => running.close());

  it("point recordings at the address the server bound, so clients can fetch them", async () => {
    const { sandbox } = running;
    const posted: Record<string, string>[] = [];
    sandbox.webhooks.register("https://app.example.test/", (request) => {
      if (request.url.endsWith("/voice")) {
        return '<Response><Record action="https://app.example.test/recorded" timeout="2"/></Response>';
      }
      posted.push(request.params);
      return "<Response><Hangup/></Response>";
    });
    const [number] = sandbox.store.phoneNumbers.where("account", fixtures.acme.sid);
    sandbox.store.phoneNumbers.replace({ ...number!, voice_url: "https://app.example.test/voice" });
    sandbox.calls.ring({
      from: "+14155559876",
      to: fixtures.acme.mainNumber,
      caller: { steps: [{ on: { verb: "Record" }, after: "1s", say: "Hello there", for: "2s" }] },
    });
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    const recordingUrl = posted[0]?.RecordingUrl ?? "";
    expect(
      recordingUrl.startsWith(`${running.url}/2010-04-01/Accounts/${fixtures.acme.sid}/Recordings/RE`),
    ).toBe(true);
    // Recording media is guarded by the recording scopes, so the account's credentials go along.
    const media = await fetch(`${recordingUrl}.wav`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`,
      },
    });
    expect(media.status).toBe(200);
    expect(media.headers.get("content-type")).toMatch(/audio\/(x-)?wav/);
  });
});

describe("command line", () => {
  const cli = ["--import", "tsx", join(import.meta.dirname, "../../src/server/cli.ts")];

  it("refuses a bad fixture file at start, naming file, line and reason", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-fixtures-"));
    const file = join(dir, "bad.yaml");
    writeFileSync(file, "carrier:\n  api_key: short\n");
    const failure = await run(process.execPath, [...cli, "serve", "--port", "0", "--fixtures", file]).catch(
      (e) => e,
    );
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain(`${file}:2:12: carrier.api_key: must be at least 16 characters`);
  });

  it("documents every option in --help", async () => {
    const { stdout } = await run(process.execPath, [...cli, "serve", "--help"]);
    for (const option of [
      "--port",
      "--host",
      "--fixtures",
      "--seed",
      "--clock",
      "--carrier-key",
      "--admin-token",
    ]) {
      expect(stdout).toContain(option);
    }
    expect(stdout).toContain("VOICE_SANDBOX_CARRIER_KEY");
  });
});
