// The agent's CI: its scripted callers on the virtual clock (turns gated, the same report every run), then a load run on the real clock.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import { formatLoadResult, runLoad } from "voice-sandbox";
import { scenarioTests } from "voice-sandbox/vitest";
import { startAgent } from "./agent.mjs";

const here = import.meta.dirname;
let agent;
beforeAll(async () => {
  agent = await startAgent();
});
afterAll(() => agent.close());

describe("the agent's turns", () => {
  // Each persona scenario in this folder, in a fresh sandbox on the virtual clock, its agent gates checked.
  test.for(scenarioTests("persona-*.yaml", { cwd: here, target: () => agent.url("") }))("$name", (scenario, ctx) =>
    scenario.run(ctx),
  );
});

describe("the agent under load", () => {
  it("answers 20 callers, 10 at once, within the scenario's gates", async () => {
    const result = await runLoad(join(here, "load.yaml"), {
      calls: 20,
      concurrency: 10,
      target: agent.url(""),
    });
    // What a CI log shows: the spread of every figure, the thresholds and the verdict.
    console.log(formatLoadResult(result));
    expect(result.passed, formatLoadResult(result)).toBe(true);
    expect(result.passedCalls).toBe(20);
  }, 120_000);
});
