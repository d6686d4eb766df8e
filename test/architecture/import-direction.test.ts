// The import direction of docs/architecture.md is enforced by the lint: a wrong-way import fails `npm test`.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const biome = join(root, "node_modules", ".bin", "biome");
const scratch = mkdtempSync(join(tmpdir(), "voice-sandbox-imports-"));
// The project's lint settings, outside git (so every probe file is linted).
const config = JSON.parse(readFileSync(join(root, "biome.json"), "utf8")) as Record<string, unknown>;
delete config.vcs;
delete config.$schema;
(config.files as { includes: string[] }).includes = ["src/**"];
writeFileSync(join(scratch, "biome.json"), JSON.stringify(config));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** True when the lint accepts `file` importing `specifier`. */
function accepted(file: string, specifier: string): boolean {
  const path = join(scratch, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    `// A probe.\nimport type { Probe } from "${specifier}";\n\nexport type Seen = Probe;\n`,
  );
  try {
    execFileSync(biome, ["lint", "--only=style/noRestrictedImports", file], { cwd: scratch, stdio: "pipe" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(path);
  }
}

const cases: [string, string, boolean][] = [
  ["src/domain/probe.ts", "./call.js", true],
  ["src/domain/probe.ts", "../engine/time/clock.js", false],
  ["src/webhooks/probe.ts", "../domain/call.js", true],
  ["src/webhooks/probe.ts", "../engine/time/clock.js", false],
  ["src/markup/verbs/probe.ts", "../../webhooks/contract.js", true],
  ["src/markup/verbs/probe.ts", "../../engine/calls/party-behaviour.js", false],
  ["src/engine/probe.ts", "../markup/effects.js", true],
  ["src/engine/probe.ts", "../http/services.js", false],
  ["src/engine/probe.ts", "../sandbox.js", false],
  ["src/http/account-api/probe.ts", "../../engine/calls/call-engine.js", true],
  ["src/http/account-api/probe.ts", "../../scenarios/runner.js", false],
  ["src/adapters/probe.ts", "../http/handle.js", true],
  ["src/adapters/probe.ts", "../engine/time/clock.js", false],
  ["src/scenarios/probe.ts", "../http/handle.js", true],
  ["src/scenarios/probe.ts", "../sandbox.js", false],
  ["src/scenarios/vitest.ts", "../sandbox.js", true],
  ["src/sandbox.ts", "./scenarios/runner.js", true],
  ["src/sandbox.ts", "./server/serve.js", false],
  ["src/server/probe.ts", "../sandbox.js", true],
];

describe("import direction", () => {
  it.each(cases)("%s importing %s: allowed %s", (file, specifier, allowed) => {
    expect(accepted(file, specifier)).toBe(allowed);
  });
});
