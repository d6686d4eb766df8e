// The command line as an operator uses it: a config file, env precedence, redacted logs, graceful SIGTERM.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { cliArgs, exited, startServeStoppedAfterEach } from "../support/cli-process.js";
import { fixtures } from "../support/fixtures.js";
import { getWithHost } from "../support/host-request.js";

const run = promisify(execFile);
const cli = cliArgs;
const adminToken = "admin_secret_token_from_config_0000";
const carrierKey = "carrier_secret_key_from_env_00000000";

const start = startServeStoppedAfterEach();

/** The carrier events a server keeps, as `GET /carrier/v1/events` lists them. */
const carrierEvents = async (url: string): Promise<unknown[]> =>
  (
    await (
      await fetch(`${url}/carrier/v1/events`, { headers: { authorization: `Bearer ${fixtures.carrierKey}` } })
    ).json()
  ).data;

describe("command line operations", () => {
  it("reads a YAML config file, lets the environment win over it, logs JSON with secrets redacted, and stops on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-cli-"));
    const config = join(dir, "sandbox.yaml");
    writeFileSync(
      config,
      [
        "port: 0",
        `admin-token: ${adminToken}`,
        "clock: virtual",
        "journalLimit: 7",
        "carrier-key: ignored_because_env_sets_it_000",
      ].join("\n"),
    );
    const server = start(["--config", config, "--log-level", "debug"], {
      VOICE_SANDBOX_CARRIER_KEY: carrierKey,
    });
    const url = await server.listening;

    const health = await (await fetch(`${url}/__sandbox/health`)).json();
    expect(health.clock.mode).toBe("virtual");
    expect((await fetch(`${url}/__sandbox/requests`)).status).toBe(401);
    const journal = await (
      await fetch(`${url}/__sandbox/requests`, { headers: { authorization: `Bearer ${adminToken}` } })
    ).json();
    expect(journal.capacity).toBe(7);
    const accounts = await fetch(`${url}/carrier/v1/accounts`, {
      headers: { authorization: `Bearer ${carrierKey}` },
    });
    expect(accounts.status).toBe(200);

    server.child.kill("SIGTERM");
    expect(await exited(server.child)).toBe(0);
    const lines = server.output().trim().split("\n");
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(server.output()).toContain('"msg":"stopped"');
    // Every request is logged with its status and latency, one line each.
    const requests = lines
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.path === "/carrier/v1/accounts");
    expect(requests).toEqual([
      expect.objectContaining({
        method: "GET",
        status: 200,
        latency_ms: expect.any(Number),
        msg: expect.stringMatching(/^GET \/carrier\/v1\/accounts 200 [\d.]+ ms$/),
      }),
    ]);
    expect(server.output()).toContain('"adminToken":"[redacted]"');
    expect(server.output()).not.toContain(adminToken);
    expect(server.output()).not.toContain(carrierKey);
  });

  it("names the file and the key of a bad config file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-cli-"));
    const config = join(dir, "bad.json");
    writeFileSync(config, JSON.stringify({ port: 0, colour: "blue" }));
    const failure = await run(process.execPath, [...cli, "serve", "--config", config]).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain(`${config}: colour: not an option`);
  });

  it("reads a config file only when it is a regular file", async () => {
    const failure = await run(process.execPath, [...cli, "serve", "--config", "/dev/zero"]).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain("/dev/zero: cannot read the config file (");
    expect(failure.stderr).toMatch(/not a regular file/);
  });

  it("refuses a damaged data directory at start with a clear message", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-cli-data-"));
    writeFileSync(join(dir, "snapshot.json"), "not a snapshot");
    const failure = await run(process.execPath, [...cli, "serve", "--port", "0", "--data-dir", dir]).catch(
      (e) => e,
    );
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(
      /cannot load the data directory\n.*snapshot is damaged.*Refusing to start/,
    );
  });

  it("keeps as many carrier events as --event-limit says, dropping the oldest", async () => {
    const server = start(["--port", "0", "--event-limit", "2"]);
    const url = await server.listening;
    const auth = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;
    for (const body of ["one", "two", "three"]) {
      const sent = await fetch(`${url}/2010-04-01/Accounts/${fixtures.acme.sid}/Messages.json`, {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ To: "+15558675310", From: fixtures.acme.mainNumber, Body: body }),
      });
      expect(sent.status).toBe(201);
    }
    expect(await carrierEvents(url)).toHaveLength(2);
  });

  it("reads the event and call-timeline limits from a config file: the oldest go first", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-cli-"));
    const config = join(dir, "limits.json");
    writeFileSync(config, JSON.stringify({ "event-limit": 3, callTimelineLimit: 1, clock: "virtual" }));
    const server = start(["--port", "0", "--config", config]);
    const url = await server.listening;
    const auth = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;
    const sids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const placed = await fetch(`${url}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`, {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          To: "+15558675310",
          From: fixtures.acme.mainNumber,
          Twiml: "<Response><Say>Hello</Say></Response>",
        }),
      });
      expect(placed.status).toBe(201);
      sids.push((await placed.json()).sid);
      const idle = await fetch(`${url}/__sandbox/clock/run_until_idle`, {
        method: "POST",
        headers: { "content-type": "application/json" },
      });
      expect(idle.status).toBe(200);
    }
    const timeline = async (sid: string) =>
      (await (await fetch(`${url}/__sandbox/calls/${sid}/timeline`)).json()).timeline;
    expect(await timeline(sids[0]!)).toEqual([]);
    expect((await timeline(sids[1]!)).length).toBeGreaterThan(0);
    expect(await carrierEvents(url)).toHaveLength(3);
  });

  it("reads public-url and port-file from a config file, an empty variable not hiding it: the admin API answers that Host, the port is written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-cli-"));
    const config = join(dir, "public.yaml");
    const portFile = join(dir, "port");
    writeFileSync(config, `public-url: http://sandbox.internal:4010/\nport-file: ${portFile}\n`);
    // An empty variable (a compose file's `VOICE_SANDBOX_PUBLIC_URL=`) counts as not set.
    const server = start(["--port", "0", "--config", config], { VOICE_SANDBOX_PUBLIC_URL: "" });
    const url = await server.listening;
    expect(readFileSync(portFile, "utf8")).toBe(`${new URL(url).port}\n`);
    expect((await getWithHost(url, "/__sandbox/state", "sandbox.internal:4010")).status).toBe(200);
    expect((await getWithHost(url, "/__sandbox/state", "elsewhere.example:4010")).status).toBe(403);
  });

  it("refuses a config file's public-url as the command line refuses it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vs-cli-"));
    const config = join(dir, "bad-url.json");
    writeFileSync(config, JSON.stringify({ port: 0, "public-url": "ftp://sandbox.example.test" }));
    const failure = await run(process.execPath, [...cli, "serve", "--config", config]).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain(`${config}: public-url: must be an http:// or https:// URL, not ftp:`);
  });

  it("refuses an --event-max-age that is not a duration", async () => {
    const server = start(["--port", "0", "--event-max-age", "soon"]);
    await expect(server.listening).rejects.toThrow(/soon/);
  });

  it("documents every new option and its environment variable in --help", async () => {
    const { stdout } = await run(process.execPath, [...cli, "serve", "--help"]);
    for (const text of [
      "--config",
      "--data-dir",
      "VOICE_SANDBOX_DATA_DIR",
      "--snapshot-every",
      "--journal-limit",
      "VOICE_SANDBOX_JOURNAL_LIMIT",
      "--event-limit",
      "VOICE_SANDBOX_EVENT_LIMIT",
      "--event-max-age",
      "VOICE_SANDBOX_EVENT_MAX_AGE",
      "--call-timeline-limit",
      "VOICE_SANDBOX_CALL_TIMELINE_LIMIT",
      "--shutdown-grace",
      "--log-format",
    ]) {
      expect(stdout).toContain(text);
    }
  });
});
