// Failure reporting: the pretty text, JUnit XML and JSON reports, and `voice-sandbox run`'s output and exit codes.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { formatResult, jsonReport, junitReport, type RunSummary, runScenarioFiles } from "../../src/index.js";

const run = promisify(execFile);
const repoRoot = join(import.meta.dirname, "../..");
const cli = join(repoRoot, "src/server/cli.ts");

const passing = `name: passes
numbers: [{ number: "+14155550100", voice: "<Response><Say>Hello</Say></Response>" }]
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
  calls: { c1: { status: completed } }
`;
const failing = passing.replace("status: completed", "status: busy").replace("name: passes", "name: fails");
const skipped = `name: later\nskip: needs a feature\n`;
const broken = "name: broken\nsteps:\n  - wiat: 5s\n";

let dir = "";
const file = (name: string) => join(dir, name);

async function cliRun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", cli, "run", ...args], {
      cwd: repoRoot,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "scenario-report-"));
  await writeFile(file("passing.yaml"), passing);
  await writeFile(file("failing.yaml"), failing);
  await writeFile(file("skipped.yaml"), skipped);
  await writeFile(file("broken.yaml"), broken);
});

describe("reports", () => {
  let summary: RunSummary;
  beforeAll(async () => {
    summary = await runScenarioFiles([file("*.yaml")]);
  });

  it("sums up the run: passed, failed, skipped, and files that did not load", () => {
    expect(summary).toMatchObject({ passed: 1, failed: 1, skipped: 1, errors: 0 });
    expect(summary.loadErrors).toEqual([
      {
        file: file("broken.yaml"),
        message: expect.stringContaining(`${file("broken.yaml")}:3:11: steps.0: Unrecognized key: "wiat"`),
      },
    ]);
  });

  it("pretty: a failure shows where, what was expected, what happened, and the call's timeline", () => {
    const text = formatResult(summary.results.find((r) => r.name === "fails")!);
    expect(text).toContain(`✗ fails (${file("failing.yaml")})`);
    expect(text).toContain(`1) ${file("failing.yaml")}:6:26  expect.calls.c1.status`);
    expect(text).toContain('call c1: status is "completed", expected "busy"');
    expect(text).toContain('expected: {"status":"busy"}');
    expect(text).toContain('actual:   {"status":"completed"}');
    expect(text).toMatch(/timeline of c1 \(CA[0-9a-f]{32}\):\n\s+\+0\.000s {2}call\.created/);
    expect(text).toContain('heard.say {"kind":"say","text":"Hello"');
  });

  it("JUnit: one testcase per scenario and per file that did not load, failures and skips marked", () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      junitReport(summary),
    );
    const suite = xml.testsuites.testsuite;
    expect(suite).toMatchObject({ tests: "4", failures: "1", errors: "1", skipped: "1" });
    const cases = suite.testcase as Record<string, unknown>[];
    expect(cases.map((c) => c.name)).toEqual(["fails", "passes", "later", file("broken.yaml")]);
    const failure = cases[0]!.failure as Record<string, string>;
    expect(failure.message).toBe('call c1: status is "completed", expected "busy"');
    expect(failure["#text"]).toContain("timeline of c1");
    expect(cases[2]!.skipped).toEqual({ message: "needs a feature" });
    expect((cases[3]!.error as Record<string, string>).type).toBe("load");
  });

  it("JSON: the whole summary, parseable", () => {
    const parsed = JSON.parse(jsonReport(summary));
    expect(parsed.results.map((r: { status: string }) => r.status)).toEqual(["failed", "passed", "skipped"]);
    expect(parsed.results[0].failures[0].call.timeline.length).toBeGreaterThan(3);
  });
});

describe("voice-sandbox run", () => {
  it("exits 0 when every scenario passes (skips allowed), printing progress and a summary", async () => {
    const { code, stdout } = await cliRun([file("passing.yaml"), file("skipped.yaml")]);
    expect(code).toBe(0);
    expect(stdout).toContain("✓ passes");
    expect(stdout).toContain("- later");
    expect(stdout).toMatch(/1 passed, 0 failed, 1 skipped \(2 files, \d+ ms wall\)/);
  });

  it("exits 1 on a failed scenario and prints the failure", async () => {
    const { code, stdout } = await cliRun([file("passing.yaml"), file("failing.yaml")]);
    expect(code).toBe(1);
    expect(stdout).toContain(`${file("failing.yaml")}:6:26  expect.calls.c1.status`);
  });

  it("exits 2 on a file that does not load, naming file, line and column", async () => {
    const { code, stdout } = await cliRun([file("passing.yaml"), file("broken.yaml")]);
    expect(code).toBe(2);
    expect(stdout).toContain(`${file("broken.yaml")}:3:11: steps.0: Unrecognized key: "wiat"`);
    expect(stdout).toMatch(/1 passed, 0 failed, 0 skipped, 1 did not load \(2 files, \d+ ms wall\)/);
    const none = await cliRun([join(dir, "nothing-*.yaml")]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no scenario files match");
  });

  it("--reporter junit --output writes the XML file; --reporter json on stdout keeps progress on stderr", async () => {
    const out = file("report.xml");
    const junit = await cliRun([file("*ing.yaml"), "--reporter", "junit", "--output", out]);
    expect(junit.code).toBe(1);
    expect(await readFile(out, "utf8")).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
    const json = await cliRun([file("passing.yaml"), "--reporter", "json", "--seed", "42"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).results[0]).toMatchObject({ name: "passes", status: "passed", seed: 42 });
    expect(json.stderr).toContain("✓ passes");
  });
});
