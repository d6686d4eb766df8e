// Fixture files stay for files and programs (the CLI, the library, the vitest helper): read bounded, and a file
// that cannot be read or has the wrong shape makes the scenario an error with its reason, never a crash.
import { execFileSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createSandbox,
  loadScenarioFile,
  parseScenario,
  runScenarioFiles,
  ScenarioLoadError,
} from "../../src/index.js";

const played = `numbers:
  - number: "+14155550100"
    voice: <Response><Say>Hello</Say></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
  calls: { c1: { status: completed } }
`;

const world = `carrier: { api_key: file_carrier_key_0000000000001 }
accounts:
  - { sid: AC${"5".repeat(32)}, name: File Ltd, auth_token: file_auth_token_5555555555555555, balance_cents: 500 }
phone_numbers:
  - { number: "+14155550100" }
`;

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "vs-fixture-files-"));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe("fixture files named by scenario files", () => {
  it("a scenario file plays with the fixture file beside it", async () => {
    const dir = await folder({
      "world.yaml": world,
      "s.yaml": `name: file world\nfixtures: world.yaml\n${played}`,
    });
    const summary = await runScenarioFiles([join(dir, "s.yaml")]);
    expect(summary.results[0]?.status, summary.results[0]?.error).toBe("passed");
  });

  it("a fixture file of the wrong shape makes the scenario an error naming the file and the fault", async () => {
    const dir = await folder({
      "wrong.yaml": "carrier: { api_key: short }\naccounts: nope\n",
      "s.yaml": `name: wrong world\nfixtures: wrong.yaml\n${played}`,
    });
    const summary = await runScenarioFiles([join(dir, "s.yaml")]);
    expect(summary.errors).toBe(1);
    expect(summary.results[0]?.error).toContain(`fixtures: ${join(dir, "wrong.yaml")}:1:21: carrier.api_key`);
  });

  it("/dev/zero and a FIFO as fixtures are refused without reading, and so is a file over the cap", async () => {
    const dir = await folder({});
    execFileSync("mkfifo", [join(dir, "pipe.yaml")]);
    const sandbox = createSandbox();
    for (const path of ["/dev/zero", join(dir, "pipe.yaml")]) {
      const result = await sandbox.runScenario(`name: device\nfixtures: ${path}\n${played}`);
      expect(result.status, path).toBe("error");
      expect(result.error).toBe(
        `fixtures: ${path}: cannot read the fixture file (not a regular file (a device, FIFO or directory))`,
      );
    }
    await writeFile(join(dir, "huge.yaml"), `# ${"x".repeat(16 * 1024 * 1024)}\n${world}`);
    const huge = await sandbox.runScenario(`name: huge\nfixtures: ${join(dir, "huge.yaml")}\n${played}`);
    expect(huge.error).toBe(
      `fixtures: ${join(dir, "huge.yaml")}: cannot read the fixture file (larger than 16 MiB)`,
    );
  });

  it("a scenario file that is a device is a load error, not a read without end", () => {
    expect(() => loadScenarioFile("/dev/zero")).toThrow(
      "/dev/zero: cannot read the scenario file (not a regular file (a device, FIFO or directory))",
    );
  });

  it("fixtures: empty is refused where it is written, in files too", () => {
    expect(() => parseScenario(`name: empty\nfixtures: empty\n${played}`, "s.yaml")).toThrow(
      /^s\.yaml:2:11: fixtures: empty leaves no account for the scenario to act as/,
    );
    expect(() => parseScenario(`name: empty\nfixtures: empty\n`, "s.yaml")).toThrow(ScenarioLoadError);
  });

  it("fixtures written inline in a file or an object play, each problem located", async () => {
    const inline = `fixtures:\n${world.trimEnd().replace(/^/gm, "  ")}\n`;
    const result = await createSandbox().runScenario(`name: inline\n${inline}${played}`);
    expect(result.status, result.error).toBe("passed");
    expect(() => parseScenario(`name: inline\nfixtures:\n  carrier: { api_key: 7 }\n`, "s.yaml")).toThrow(
      "s.yaml:3:23: fixtures.carrier.api_key: Invalid input: expected string, received number",
    );
  });
});
