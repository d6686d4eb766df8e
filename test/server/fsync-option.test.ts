// The fsync policy as an operator sets it: --fsync, VOICE_SANDBOX_FSYNC and the config file's key, as the start
// line reports it; a policy that is not one of the two refused at start.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { cliArgs, startServeStoppedAfterEach } from "../support/cli-process.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "vs-fsync-option-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("serve --fsync", () => {
  const start = startServeStoppedAfterEach();

  it.each([
    [["--fsync", "sometimes"], {}, "Allowed choices are periodic, always"],
    [[], { VOICE_SANDBOX_FSYNC: "never" }, "Allowed choices are periodic, always"],
    [["--config", file("bad.yaml", "fsync: never\n")], {}, "fsync"],
  ])("refuses %j %j at start, saying what it takes", async (args, env, message) => {
    const failure = await run(process.execPath, [...cliArgs, "serve", "--port", "0", ...args], {
      env: { ...process.env, ...env },
    }).catch((error: { code: number; stderr: string }) => error);
    expect((failure as { code: number }).code).toBe(1);
    expect((failure as { stderr: string }).stderr).toContain(message);
  });

  it("takes the policy from the flag, the environment or the file, and periodic without one", async () => {
    for (const [args, env, policy] of [
      [["--fsync", "always"], {}, "always"],
      [[], { VOICE_SANDBOX_FSYNC: "always" }, "always"],
      [["--config", file("good.yaml", "fsync: always\n")], {}, "always"],
      [[], {}, "periodic"],
    ] as const) {
      const data = mkdtempSync(join(dir, "data-"));
      const server = start(["--port", "0", "--data-dir", data, ...args], env);
      await server.listening;
      expect(server.output()).toContain(`"fsync":"${policy}"`);
      expect(server.output()).toContain(`fsync ${policy})`);
      server.child.kill("SIGTERM");
    }
  });
});
