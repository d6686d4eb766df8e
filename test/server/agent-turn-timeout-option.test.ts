// --agent-turn-timeout as an operator gives it to serve: the flag, VOICE_SANDBOX_AGENT_TURN_TIMEOUT and the config file's key.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConfigFile, parseAgentTurnTimeout } from "../../src/server/config-file.js";
import { cliArgs, startServeStoppedAfterEach } from "../support/cli-process.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "vs-turn-timeout-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("a turn timeout as written", () => {
  it.each([
    ["10s", 10_000],
    ["2500ms", 2500],
    [0, 0],
    ["1m", 60_000],
  ])("reads %j", (input, ms) => {
    expect(parseAgentTurnTimeout(input)).toBe(ms);
  });

  it.each(["2m", "soon", "-1s", 60_001])("refuses %j", (input) => {
    expect(() => parseAgentTurnTimeout(input)).toThrow("must be a duration from 0 to 1m");
  });

  it("is a key of the config file, in either spelling, checked as the flag is", () => {
    expect(loadConfigFile(file("a.yaml", "agent-turn-timeout: 20s\n")).agentTurnTimeout).toBe(20_000);
    expect(loadConfigFile(file("b.json", '{"agentTurnTimeout": 1500}')).agentTurnTimeout).toBe(1500);
    const bad = file("bad.yaml", "agent-turn-timeout: 5m\n");
    expect(() => loadConfigFile(bad)).toThrow(`${bad}: agent-turn-timeout: must be a duration from 0 to 1m`);
  });
});

describe("serve --agent-turn-timeout", () => {
  const start = startServeStoppedAfterEach();

  it.each([
    [["--agent-turn-timeout", "2h"], {}],
    [[], { VOICE_SANDBOX_AGENT_TURN_TIMEOUT: "whenever" }],
    [["--config", file("bad-serve.yaml", "agent-turn-timeout: 2m\n")], {}],
  ])("refuses %j %j at start, saying what it takes", async (args, env) => {
    const failure = await run(process.execPath, [...cliArgs, "serve", "--port", "0", ...args], {
      env: { ...process.env, ...env },
    }).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).toBe(1);
    expect((failure as { stderr: string }).stderr).toContain("must be a duration from 0 to 1m");
  });

  it("starts with a good value from the flag, the environment or the file", async () => {
    for (const [args, env] of [
      [["--agent-turn-timeout", "2s"], {}],
      [[], { VOICE_SANDBOX_AGENT_TURN_TIMEOUT: "1500ms" }],
      [["--config", file("good.yaml", "agent-turn-timeout: 0\n")], {}],
    ] as const) {
      const server = start(["--port", "0", ...args], env);
      const url = await server.listening;
      expect((await fetch(`${url}/__sandbox/health`)).status).toBe(200);
      server.child.kill("SIGTERM");
    }
  });
});
