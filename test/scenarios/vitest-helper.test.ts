// The vitest helper: cases named after their scenarios; skips go through vitest's context; failures throw the report.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ScenarioFailedError, scenarioTests } from "../../src/scenarios/vitest.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "scenario-vitest-"));
  const numbers = 'numbers: [{ number: "+14155550100", voice: "<Response><Say>Hi</Say></Response>" }]';
  const call = 'steps:\n  - call: { id: c1, from: "+14155550123", to: "+14155550100" }';
  await writeFile(
    join(dir, "a-passes.yaml"),
    `name: passes\n${numbers}\n${call}\nexpect: { calls: { c1: { status: completed } } }\n`,
  );
  await writeFile(
    join(dir, "b-fails.yaml"),
    `name: fails\n${numbers}\n${call}\nexpect: { calls: { c1: { status: busy } } }\n`,
  );
  await writeFile(join(dir, "c-skipped.yaml"), "name: skipped\nskip: waits for a feature\n");
  await writeFile(join(dir, "d-broken.yaml"), "name: broken\nsteps: [{ wiat: 1s }]\n");
});

describe("scenarioTests", () => {
  const cases = () => scenarioTests("*.yaml", { cwd: dir });

  it("lists one case per file, named after the scenario, with its skip reason", () => {
    expect(cases().map((c) => [c.name, c.skip])).toEqual([
      ["passes", undefined],
      ["fails", undefined],
      ["skipped", "waits for a feature"],
      [join(dir, "d-broken.yaml"), undefined],
    ]);
  });

  it("run() resolves for a passing scenario, and play() resolves with its result", async () => {
    await expect(cases()[0]!.run()).resolves.toBeUndefined();
    expect((await cases()[0]!.play()).status).toBe("passed");
  });

  it("run() throws the pretty report for a failing one", async () => {
    const error = await cases()[1]!
      .run()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScenarioFailedError);
    expect((error as Error).message).toContain('call c1: status is "completed", expected "busy"');
    expect((error as Error).message).toContain("timeline of c1");
  });

  it("a skipped scenario is skipped through vitest's context, and never passes without it", async () => {
    const skipped: (string | undefined)[] = [];
    await cases()[2]!
      .run({ skip: (note) => void skipped.push(note) })
      .catch(() => undefined);
    expect(skipped).toEqual(["waits for a feature"]);
    await expect(cases()[2]!.run()).rejects.toThrow('scenario "skipped" is marked skip: waits for a feature');
  });

  it("a file that does not load fails its case with the located error", async () => {
    await expect(cases()[3]!.run()).rejects.toThrow(
      /d-broken\.yaml:2:\d+: steps\.0: Unrecognized key: "wiat"/,
    );
  });
});
