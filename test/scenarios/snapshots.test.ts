// Timeline snapshots: written beside the file on the first run, compared after with a readable diff, rewritten on request.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { formatResult, runScenarioFiles } from "../../src/index.js";
import { scenarioTests } from "../../src/scenarios/vitest.js";

const scenario = (greeting: string) => `name: snapshot
snapshot: true
numbers:
  - number: "+14155550100"
    status_callback: /status
    voice: <Response><Say>${greeting}</Say></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - sms: { from: "+14155550123", to: "+14155550100", body: hi }
`;

const cli = join(import.meta.dirname, "../../src/server/cli.ts");
/** `voice-sandbox run` on the files: its exit code and output. */
async function cliRun(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", cli, "run", ...args], {
      timeout: 60_000,
    });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

async function scenarioFile(greeting: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "snapshots-")), "greeting.yaml");
  await writeFile(file, scenario(greeting));
  return file;
}

describe("timeline snapshots", () => {
  it("the first run writes every call's and message's timeline beside the file; the next run matches it", async () => {
    const file = await scenarioFile("Hello");
    const first = (await runScenarioFiles([file])).results[0]!;
    expect(first.status, formatResult(first)).toBe("passed");
    expect(first.snapshot).toEqual({ status: "written", file: `${file}.snap` });
    const text = await readFile(`${file}.snap`, "utf8");
    expect(text.split("\n").slice(0, 2)).toEqual([
      '# Timeline of scenario "snapshot", written by voice-sandbox. Rewrite with --update-snapshots.',
      expect.stringMatching(
        /^call c1 CA[0-9a-f]{32} inbound \+14155550123 -> \+14155550100: completed, 1 s, price -0\.\d{5}$/,
      ),
    ]);
    expect(text).toContain('  +0.000s  heard.say {"kind":"say","text":"Hello"');
    expect(text).toMatch(
      / {2}\+1\.000s {2}call-status POST \/status -> 200 \{"AccountSid":.*"CallStatus":"completed"/,
    );
    expect(text).toMatch(/ {2}\+1\.000s {2}ledger charge voice -\d+ cents \(balance \d+\)/);
    expect(text).toMatch(
      /\nmessage SM[0-9a-f]{32} inbound \+14155550123 -> \+14155550100 "hi": received, price /,
    );
    const second = (await runScenarioFiles([file])).results[0]!;
    expect(second.status).toBe("passed");
    expect(second.snapshot?.status).toBe("matched");
    expect(second.timeline).toBe(first.timeline);
  });

  it("a changed timeline fails with a unified diff; --update-snapshots rewrites it", async () => {
    const file = await scenarioFile("Hello");
    await runScenarioFiles([file]);
    await writeFile(file, scenario("Hello there"));
    const changed = (await runScenarioFiles([file])).results[0]!;
    expect(changed.status).toBe("failed");
    const failure = changed.failures[0]!;
    expect(failure).toMatchObject({
      path: "snapshot",
      where: `${file}:2:11`,
      message: `the timeline differs from ${file}.snap (- saved, + this run); if the change is right, run again with --update-snapshots`,
    });
    expect(failure.diff).toContain(
      '-  +0.000s  heard.say {"kind":"say","text":"Hello","voice":"","language":"en-US"}',
    );
    expect(failure.diff).toContain(
      '+  +0.000s  heard.say {"kind":"say","text":"Hello there","voice":"","language":"en-US"}',
    );
    expect(formatResult(changed)).toContain('     -  +0.000s  heard.say {"kind":"say","text":"Hello"');
    const updated = (await runScenarioFiles([file], { updateSnapshots: true })).results[0]!;
    expect(updated.status).toBe("passed");
    expect(updated.snapshot?.status).toBe("updated");
    expect((await runScenarioFiles([file])).results[0]!.snapshot?.status).toBe("matched");
  });

  it("voice-sandbox run prints the diff and exits 1; --update-snapshots rewrites the file and exits 0", async () => {
    const file = await scenarioFile("Hello");
    await runScenarioFiles([file]);
    await writeFile(file, scenario("Goodbye"));
    const changed = await cliRun([file]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('     +  +0.000s  heard.say {"kind":"say","text":"Goodbye"');
    const updated = await cliRun([file, "--update-snapshots"]);
    expect(updated.code).toBe(0);
    expect(await readFile(`${file}.snap`, "utf8")).toContain('"text":"Goodbye"');
  });

  it("the vitest helper hands the timeline to vitest's own snapshot and writes no file", async () => {
    const file = await scenarioFile("Hello");
    const seen: unknown[] = [];
    const context = {
      skip() {},
      expect: (value: unknown) => ({ toMatchSnapshot: () => void seen.push(value) }),
    };
    const result = await scenarioTests(file)[0]!.play(context);
    expect(seen).toEqual([result.timeline]);
    expect(existsSync(`${file}.snap`)).toBe(false);
  });
});
