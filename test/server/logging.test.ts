// The server's log on a started server: a line per request at info (the inspector's own reads at debug), every alert at
// warn with its call sid, and a reset, a clock change and a fault at info; the CLI prints the same lines by default.
import { Writable } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { pino } from "pino";
import twilio from "twilio";
import { afterEach, describe, expect, it } from "vitest";
import { inspectorClientHeader } from "../../src/inspector/paths.js";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { startServeStoppedAfterEach } from "../support/cli-process.js";
import { fixtures } from "../support/fixtures.js";

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}
const levels = { debug: 20, info: 30, warn: 40 };

/** A pino logger as the CLI makes one, writing JSON lines to memory. */
function capture(level: string) {
  const lines: Line[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split("\n")) if (text) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  return { logger: pino({ level }, destination), lines };
}

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

async function start(level: string, clock: "real" | "virtual" = "virtual") {
  const { logger, lines } = capture(level);
  const server = await serve({ port: 0, clock, logger });
  running.push(server);
  const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { server, lines, admin };
}

const requestLines = (lines: Line[], path: string) =>
  lines.filter((line) => line.path === path && typeof line.status === "number");

describe("request lines", () => {
  it("at info, one line per request: method, path, status, error code and milliseconds", async () => {
    const { server, lines } = await start("info");
    const client = twilio(fixtures.acme.sid, fixtures.acme.authToken);
    client.api.baseUrl = server.url;
    await client.incomingPhoneNumbers.list();
    await expect(
      client.calls.create({ from: fixtures.acme.mainNumber, to: "+15558675310", url: "not a url" }),
    ).rejects.toMatchObject({ status: 400, code: 21205 });
    expect((await fetch(`${server.url}/nothing-here`)).status).toBe(404);

    const numbers = requestLines(
      lines,
      `/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers.json`,
    );
    expect(numbers).toHaveLength(1);
    expect(numbers[0]).toMatchObject({ level: levels.info, method: "GET", status: 200 });
    expect(numbers[0]!.error_code).toBeUndefined();
    expect(numbers[0]!.msg).toMatch(
      new RegExp(
        `^GET /2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers\\.json 200 [\\d.]+ ms$`,
      ),
    );
    expect(typeof numbers[0]!.latency_ms).toBe("number");

    const refused = requestLines(lines, `/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ level: levels.info, method: "POST", status: 400, error_code: 21205 });
    expect(refused[0]!.msg).toMatch(/^POST \/2010-04-01\/Accounts\/AC\w+\/Calls\.json 400 21205 [\d.]+ ms$/);

    // A path nothing serves goes through the pages' side, and is told just the same.
    const missing = requestLines(lines, "/nothing-here");
    expect(missing).toHaveLength(1);
    expect(missing[0]).toMatchObject({ level: levels.info, method: "GET", status: 404 });
  });

  it("keeps the inspector's own reads (its page, files and polled admin reads) at debug; its writes at info", async () => {
    for (const level of ["info", "debug"] as const) {
      const { server, lines, admin } = await start(level);
      const page = await fetch(`${server.url}/__sandbox/ui`);
      expect(page.status).toBe(200);
      const asset = await fetch(`${server.url}/__sandbox/ui/assets/app.js`);
      expect(asset.status).toBe(200);
      await asset.text();
      const polled = await admin("GET", "/__sandbox/requests", undefined, {
        [inspectorClientHeader]: "inspector",
      });
      expect(polled.status).toBe(200);
      const reset = await admin("POST", "/__sandbox/reset", {}, { [inspectorClientHeader]: "inspector" });
      expect(reset.status).toBe(200);
      // The same admin read from a script is the script's, at info.
      expect((await admin("GET", "/__sandbox/faults")).status).toBe(200);
      await server.close();

      const quiet = [
        ...requestLines(lines, "/__sandbox/ui"),
        ...requestLines(lines, "/__sandbox/ui/assets/app.js"),
        ...requestLines(lines, "/__sandbox/requests"),
      ];
      expect(quiet.map((line) => line.level)).toEqual(level === "debug" ? [20, 20, 20] : []);
      expect(requestLines(lines, "/__sandbox/reset").map((line) => line.level)).toEqual([levels.info]);
      expect(requestLines(lines, "/__sandbox/faults").map((line) => line.level)).toEqual([levels.info]);
    }
  });

  it("at warn, writes no request line", async () => {
    const { server, lines, admin } = await start("warn");
    expect((await fetch(`${server.url}/__sandbox/health`)).status).toBe(200);
    expect((await admin("POST", "/__sandbox/reset", {})).status).toBe(200);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect(lines.filter((line) => typeof line.status === "number" || line.level < levels.warn)).toEqual([]);
  });
});

describe("alerts", () => {
  it("logs each alert at warn with the call sid: a number with no Voice URL says so in the terminal", async () => {
    const { lines, admin } = await start("warn");
    const rang = await admin("POST", "/__sandbox/calls/inbound", {
      from: "+15005550006",
      to: fixtures.acme.mainNumber,
    });
    expect(rang.status).toBe(201);
    const call = (await rang.json()) as { sid: string };
    expect((await admin("POST", "/__sandbox/clock/advance", { by: "2s" })).status).toBe(200);

    const alerts = lines.filter((line) => line.error_code !== undefined && line.level === levels.warn);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ call_sid: call.sid, error_code: 11200, level: levels.warn });
    expect(alerts[0]!.msg).toMatch(
      new RegExp(
        `^alert 11200 on call ${call.sid}: HTTP retrieval failure: no URL is configured: .*VoiceUrl`,
      ),
    );
  });
});

describe("control lines", () => {
  it("tells a reset, a clock change and a fault at info", async () => {
    const { lines, admin } = await start("info", "real");
    expect((await admin("POST", "/__sandbox/clock", { mode: "virtual" })).status).toBe(200);
    expect((await admin("POST", "/__sandbox/clock/advance", { by: "5s" })).status).toBe(200);
    const added = await admin("POST", "/__sandbox/faults", {
      path: "/2010-04-01/Accounts/*/Messages.json",
      method: "POST",
      status: 503,
      count: 1,
    });
    expect(added.status).toBe(201);
    const fault = (await added.json()) as { id: string };
    expect((await admin("DELETE", `/__sandbox/faults/${fault.id}`)).status).toBe(200);
    expect((await admin("POST", "/__sandbox/reset", { to: "fixtures" })).status).toBe(200);
    // A refused change changes nothing, and is not told as one.
    expect((await admin("POST", "/__sandbox/clock", { mode: "sideways" })).status).toBe(400);

    const told = lines
      .filter((line) => line.status === undefined && line.level === levels.info)
      .map((l) => l.msg);
    expect(told).toEqual([
      expect.stringMatching(/^clock switched to virtual time at \d{4}-\d\d-\d\dT[\d:.]+Z$/),
      expect.stringMatching(/^clock advanced by 5s to \d{4}-/),
      `fault ${fault.id} added: POST /2010-04-01/Accounts/*/Messages.json -> 503 (1 use)`,
      `fault ${fault.id} removed`,
      "state reset to the fixtures",
    ]);
  });
});

describe("the command line", () => {
  const startServe = startServeStoppedAfterEach();

  it("in a terminal's pretty format, writes each request as one line, the fields left to JSON", async () => {
    const server = startServe(["--port", "0", "--log-format", "pretty"]);
    const url = await server.listening;
    expect((await fetch(`${url}/__sandbox/health`)).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!/GET \/__sandbox\/health 200/.test(server.output()) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = stripVTControlCharacters(server.output()).split("\n");
    const at = lines.findIndex((line) =>
      / INFO \(voice-sandbox\): GET \/__sandbox\/health 200 [\d.]+ ms$/.test(line),
    );
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1] ?? "").not.toMatch(/^\s+method:/);
    expect(lines.find((line) => line.includes("listening on"))).toMatch(
      /listening on http:\/\/127\.0\.0\.1:\d+ \(real clock, the default fixtures\)$/,
    );
  });

  it("prints a request line at the default level", async () => {
    const server = startServe(["--port", "0", "--log-format", "json"]);
    const url = await server.listening;
    expect((await fetch(`${url}/__sandbox/health`)).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!server.output().includes('"path":"/__sandbox/health"') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const line = server
      .output()
      .split("\n")
      .filter((text) => text.includes('"path":"/__sandbox/health"'))
      .map((text) => JSON.parse(text) as Line);
    expect(line).toHaveLength(1);
    expect(line[0]).toMatchObject({
      level: levels.info,
      method: "GET",
      status: 200,
      msg: expect.stringMatching(/^GET \/__sandbox\/health 200 /),
    });
  });
});
