// The frame sender threads as an operator sets them: --sender-threads, VOICE_SANDBOX_SENDER_THREADS and the config
// file's key; values that are not a whole number from 0 to 64 refused at start.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfigFile, parseSenderThreads } from "../../src/server/config-file.js";
import { cliArgs, startServeStoppedAfterEach } from "../support/cli-process.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "vs-sender-threads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("sender threads as written", () => {
  it.each([
    ["0", 0],
    [2, 2],
    [" 64 ", 64],
  ])("reads %j", (input, threads) => {
    expect(parseSenderThreads(input)).toBe(threads);
  });

  it.each(["-1", "two", "1.5", 65, ""])("refuses %j", (input) => {
    expect(() => parseSenderThreads(input)).toThrow("must be a whole number of threads from 0 to 64");
  });

  it("is a key of the config file, checked as the flag is", () => {
    expect(loadConfigFile(file("a.yaml", "sender-threads: 0\n")).senderThreads).toBe(0);
    const bad = file("bad.yaml", "sender-threads: many\n");
    expect(() => loadConfigFile(bad)).toThrow(`${bad}: sender-threads: must be a whole number of threads`);
  });
});

describe("serve --sender-threads", () => {
  const start = startServeStoppedAfterEach();

  it.each([
    [["--sender-threads", "65"], {}],
    [[], { VOICE_SANDBOX_SENDER_THREADS: "all" }],
    [["--config", file("bad-serve.yaml", "sender-threads: -2\n")], {}],
  ])("refuses %j %j at start, saying what it takes", async (args, env) => {
    const failure = await run(process.execPath, [...cliArgs, "serve", "--port", "0", ...args], {
      env: { ...process.env, ...env },
    }).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).toBe(1);
    expect((failure as { stderr: string }).stderr).toContain(
      "must be a whole number of threads from 0 to 64",
    );
  });

  it("starts with the threads given by the flag, the environment or the file", async () => {
    for (const [args, env] of [
      [["--sender-threads", "0"], {}],
      [[], { VOICE_SANDBOX_SENDER_THREADS: "2" }],
      [["--config", file("good.yaml", "sender-threads: 1\n")], {}],
    ] as const) {
      const server = start(["--port", "0", ...args], env);
      const url = await server.listening;
      expect((await fetch(`${url}/__sandbox/health`)).status).toBe(200);
      server.child.kill("SIGTERM");
    }
  });
});
