// The media budget as an operator sets it: --media-budget, VOICE_SANDBOX_MEDIA_BUDGET and the config file's key,
// read back from GET /__sandbox/streams/budget; values that are not a whole number of MiB refused at start.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConfigFile, parseMediaBudget } from "../../src/server/config-file.js";
import { cliArgs, startServeStoppedAfterEach } from "../support/cli-process.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "vs-media-budget-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const mib = 1024 * 1024;

describe("a media budget as written", () => {
  it.each([
    ["64", 64 * mib],
    [1, mib],
    [" 4096 ", 4096 * mib],
  ])("reads %j", (input, bytes) => {
    expect(parseMediaBudget(input)).toBe(bytes);
  });

  it.each(["0", "64MB", "1.5", 4097, -1, ""])("refuses %j", (input) => {
    expect(() => parseMediaBudget(input)).toThrow("must be a whole number of MiB from 1 to 4096");
  });

  it("is a key of the config file, checked as the flag is", () => {
    expect(loadConfigFile(file("a.yaml", "media-budget: 16\n")).mediaBudget).toBe(16 * mib);
    const bad = file("bad.yaml", "media-budget: lots\n");
    expect(() => loadConfigFile(bad)).toThrow(`${bad}: media-budget: must be a whole number of MiB`);
  });
});

describe("serve --media-budget", () => {
  const start = startServeStoppedAfterEach();

  it.each([
    [["--media-budget", "0"], {}],
    [[], { VOICE_SANDBOX_MEDIA_BUDGET: "huge" }],
    [["--config", file("bad-serve.yaml", "media-budget: 9000\n")], {}],
  ])("refuses %j %j at start, saying what it takes", async (args, env) => {
    const failure = await run(process.execPath, [...cliArgs, "serve", "--port", "0", ...args], {
      env: { ...process.env, ...env },
    }).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).toBe(1);
    expect((failure as { stderr: string }).stderr).toContain("must be a whole number of MiB from 1 to 4096");
  });

  it("holds the budget given by the flag, the environment or the file, and 64 MiB without one", async () => {
    for (const [args, env, limit] of [
      [["--media-budget", "8"], {}, 8 * mib],
      [[], { VOICE_SANDBOX_MEDIA_BUDGET: "16" }, 16 * mib],
      [["--config", file("good.yaml", "media-budget: 32\n")], {}, 32 * mib],
      [[], {}, 64 * mib],
    ] as const) {
      const server = start(["--port", "0", ...args], env);
      const url = await server.listening;
      const gauge = await fetch(`${url}/__sandbox/streams/budget`);
      expect(gauge.status).toBe(200);
      expect(await gauge.json()).toEqual({
        limit_bytes: limit,
        queued_bytes: 0,
        peak_bytes: 0,
        streams: 0,
        share_bytes: limit,
        dropped_messages: 0,
        shed_bytes: 0,
      });
      server.child.kill("SIGTERM");
    }
  });

  it("is read with the admin token when the server has one, like every admin read", async () => {
    const token = "media-budget-token-0000";
    const server = start(["--port", "0", "--admin-token", token]);
    const url = await server.listening;
    const refused = await fetch(`${url}/__sandbox/streams/budget`);
    expect(refused.status).toBe(401);
    const read = await fetch(`${url}/__sandbox/streams/budget`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.status).toBe(200);
    server.child.kill("SIGTERM");
  });
});
