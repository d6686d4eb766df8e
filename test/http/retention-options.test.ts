// The bound on records as an operator gives it: --retain, VOICE_SANDBOX_RETAIN and the config file's retain, bad values refused with the forms that work.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseRetention } from "../../src/engine/context/retention.js";
import { loadConfigFile } from "../../src/server/config-file.js";
import { cliArgs, startServeStoppedAfterEach } from "../support/cli-process.js";
import { fixtures } from "../support/fixtures.js";

const run = promisify(execFile);
const forms = "give a count of records (100000), an age (7d, 24h), both (100000,7d), or all";

describe("a bound as written", () => {
  it.each([
    ["100000", { maxCount: 100_000 }],
    ["0", { maxCount: 0 }],
    ["7d", { maxAgeMs: 7 * 86_400_000 }],
    ["50000, 24h", { maxCount: 50_000, maxAgeMs: 86_400_000 }],
    ["1h30m,10", { maxCount: 10, maxAgeMs: 5_400_000 }],
    ["all", false],
    [250, { maxCount: 250 }],
  ])("reads %s", (input, bound) => {
    expect(parseRetention(input)).toEqual(bound);
  });

  it.each(["", "lots", "7x", "0d", "-5", "1,2", "7d,8d", "10000ms,", "all,7d", "1.5"])(
    "refuses %j",
    (input) => {
      expect(() => parseRetention(input)).toThrow(forms);
    },
  );

  it("refuses a count that is not a whole number", () => {
    expect(() => parseRetention(-1)).toThrow(forms);
    expect(() => parseRetention(2.5)).toThrow(forms);
  });
});

describe("the config file's retain", () => {
  const dir = mkdtempSync(join(tmpdir(), "vs-retain-config-"));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("reads a count, an age, both, or all", () => {
    expect(loadConfigFile(file("count.yaml", "retain: 20000\n")).retain).toEqual({ maxCount: 20_000 });
    expect(loadConfigFile(file("age.yaml", "retain: 7d\n")).retain).toEqual({ maxAgeMs: 604_800_000 });
    expect(loadConfigFile(file("both.json", '{"retain": "20000,12h"}')).retain).toEqual({
      maxCount: 20_000,
      maxAgeMs: 43_200_000,
    });
    expect(loadConfigFile(file("all.yaml", "retain: all\n")).retain).toBe(false);
  });

  it("refuses a bad one naming the file and the key", () => {
    const path = file("bad.yaml", "retain: forever\n");
    expect(() => loadConfigFile(path)).toThrow(`${path}: retain: "forever" is not a bound: ${forms}`);
    const negative = file("negative.yaml", "retain: -3\n");
    expect(() => loadConfigFile(negative)).toThrow(`${negative}: retain: -3 is not a bound`);
  });
});

describe("serve --retain", () => {
  const start = startServeStoppedAfterEach();

  it.each([
    [["--retain", "forever"], {}],
    [[], { VOICE_SANDBOX_RETAIN: "12parsecs" }],
  ])("refuses %j %j at start, saying what it takes", async (args, env) => {
    const failure = await run(process.execPath, [...cliArgs, "serve", "--port", "0", ...args], {
      env: { ...process.env, ...env },
    }).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).not.toBe(0);
    expect((failure as { stderr: string }).stderr).toMatch(
      /option '--retain <bounds>' (argument|value) .* is invalid/,
    );
    expect((failure as { stderr: string }).stderr).toContain(forms);
  });

  it("keeps the newest finished records the environment asks for, the command line winning over it", async () => {
    const url = await start(["--port", "0", "--clock", "virtual", "--retain", "2"], {
      VOICE_SANDBOX_RETAIN: "all",
    }).listening;
    const authorization = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;
    const messages = `${url}/2010-04-01/Accounts/${fixtures.acme.sid}/Messages`;
    const sids: string[] = [];
    for (let n = 0; n < 4; n++) {
      const response = await fetch(`${messages}.json`, {
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ To: "+15558675310", From: fixtures.acme.mainNumber, Body: `m${n}` }),
      });
      sids.push(((await response.json()) as { sid: string }).sid);
    }
    await fetch(`${url}/__sandbox/clock/advance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ by: "5s" }),
    });
    const statuses = await Promise.all(
      sids.map(
        async (sid) => (await fetch(`${messages}/${sid}.json`, { headers: { authorization } })).status,
      ),
    );
    expect(statuses).toEqual([404, 404, 200, 200]);
  });
});
