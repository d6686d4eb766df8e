// Sharded load runs: each shard plays its block of the calls as the whole run would, and a merge makes them one run's result.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIdGenerator } from "../../src/domain/ids.js";
import { spreadOf } from "../../src/engine/media-streams/agent-metrics.js";
import type { TurnRecord } from "../../src/engine/media-streams/conversation.js";
import {
  LoadMergeError,
  type LoadResult,
  LoadUsageError,
  loadJsonReport,
  mergeLoadResults,
  parseLoadShard,
  parseScenario,
  runLoad,
} from "../../src/index.js";
import { createLoadGates, gateResultsOf, mergeGateStates } from "../../src/scenarios/load/gates.js";
import { createMetric, loadHdr, mergedSpread } from "../../src/scenarios/load/histograms.js";
import { formatLoadResult } from "../../src/scenarios/load/report.js";
import { shardBlock } from "../../src/scenarios/load/shard.js";
import { runCli, scenarioText, startAgent } from "../support/load-agent.js";
import type { StreamApp } from "../support/stream-app.js";

/** Far from the agent's ~350 ms either way: always met. */
const passing = `    turns: 1
    response_latency: { p50: "< 10s", p95: "< 20s", p99: "< 30s" }`;

let agent: StreamApp;
let apps: Record<string, string>;
beforeAll(async () => {
  agent = await startAgent();
  apps = { agent: agent.url("").replace(/\/$/, "") };
});
afterAll(() => agent.close());

/** The call sids the agent was told of since `before`, in the order the calls started. */
const callSidsSince = (before: number) =>
  agent.connections
    .slice(before)
    .map((c) => c.messages.find((m) => m.event === "start")!.start.callSid as string);

/** The result as its JSON report is read back (what a shard's file holds). */
const asWritten = (result: LoadResult): unknown => JSON.parse(loadJsonReport(result));

describe("--shard i/n", () => {
  it("cuts the run's calls into n consecutive blocks that cover every call once", () => {
    const blocks = [1, 2, 3].map((index) => shardBlock(10, { index, count: 3 }));
    expect(blocks.map((b) => [b.firstCall, b.lastCall])).toEqual([
      [1, 3],
      [4, 6],
      [7, 10],
    ]);
    expect(blocks.every((b) => b.totalCalls === 10 && b.count === 3)).toBe(true);
    expect(shardBlock(4, undefined)).toEqual({
      index: 1,
      count: 1,
      firstCall: 1,
      lastCall: 4,
      totalCalls: 4,
    });
    expect(shardBlock(3, { index: 3, count: 3 })).toMatchObject({ firstCall: 3, lastCall: 3 });
    expect(parseLoadShard(" 2/3 ")).toEqual({ index: 2, count: 3 });
  });

  it.each([
    ["a/b", "--shard must be i/n"],
    ["2", "--shard must be i/n"],
    ["-1/3", "--shard must be i/n"],
  ])("%j is not the form", (text, message) => {
    expect(() => parseLoadShard(text)).toThrow(LoadUsageError);
    expect(() => parseLoadShard(text)).toThrow(message);
  });

  it.each([
    [{ index: 0, count: 3 }, 10, "shard must be from 1/3 to 3/3: the first shard is 1 (got 0/3)"],
    [{ index: 4, count: 3 }, 10, "shard must be from 1/3 to 3/3"],
    [{ index: 1, count: 0 }, 10, "shard count must be a whole number, 1 or more"],
    [{ index: 1, count: 5 }, 4, "5 shards are more than the run's 4 calls"],
  ])("%j of %i calls is refused before a call is placed", async (shard, calls, message) => {
    const before = agent.connections.length;
    const run = runLoad(parseScenario(scenarioText(passing)), { calls, apps, shard });
    await expect(run).rejects.toThrow(LoadUsageError);
    await expect(run).rejects.toThrow(message);
    expect(agent.connections.length).toBe(before);
  });

  it("plays only its block, each call with the number and seed it has in the whole run", async () => {
    // Every call fails its status expectation, so the failed calls list each call's number and call sid.
    const text = scenarioText(passing).replace("status: completed", "status: busy");
    const whole = await runLoad(parseScenario(text), { calls: 4, apps, seed: 40 });
    expect(whole.failures.map((f) => f.call)).toEqual([1, 2, 3, 4]);
    const sidOf = new Map(whole.failures.map((f) => [f.call, f.sid]));
    expect(new Set(sidOf.values()).size).toBe(4);
    const before = agent.connections.length;
    const second = await runLoad(parseScenario(text), {
      calls: 4,
      concurrency: 2,
      apps,
      seed: 40,
      shard: { index: 2, count: 2 },
    });
    // Shard 2 of 2 of 4 calls plays calls 3 and 4: the same calls (the same sids) as the whole run's.
    expect(second).toMatchObject({
      calls: 2,
      concurrency: 2,
      failedCalls: 2,
      shard: { index: 2, count: 2, firstCall: 3, lastCall: 4, totalCalls: 4 },
    });
    expect(second.failures.map((f) => [f.call, f.sid])).toEqual([3, 4].map((n) => [n, sidOf.get(n)]));
    expect(new Set(callSidsSince(before))).toEqual(new Set([3, 4].map((n) => sidOf.get(n))));
    expect(formatLoadResult(second).split("\n")[0]).toContain(
      "2 calls (shard 2/2: calls 3-4 of 4), 2 at once",
    );
    expect(formatLoadResult(whole).split("\n")[0]).toMatch(/: 4 calls, 4 at once, /);
  });
});

describe("mergeable figures", () => {
  it("merged shards give the percentiles of all the values together, within the histograms' precision", async () => {
    const h = await loadHdr();
    const ids = createIdGenerator(7);
    // Latencies up to 60 s: whole ms under 32,768 have buckets of their own, above that 4 significant digits.
    const values = Array.from({ length: 3000 }, () => Math.floor(ids.random() ** 3 * 60_000));
    const shards = [0, 1, 2].map(() => createMetric(h, 1));
    for (const [i, v] of values.entries()) shards[Math.floor((i * 3) / values.length)]!.add(v);
    const merged = mergedSpread(
      h,
      shards.map((s) => s.mergeable()),
    );
    const exact = spreadOf(values);
    expect(merged).toMatchObject({ count: 3000, min: exact.min, max: exact.max, sampled: 3000 });
    for (const q of ["p50", "p95", "p99"] as const) {
      const want = exact[q]!;
      expect(Math.abs(merged[q]! - want), q).toBeLessThanOrEqual(want < 32_768 ? 0 : want * 1e-4);
    }
    expect(exact.p99!).toBeGreaterThan(32_768);
  });

  it("a whole run's result merged alone gives its own percentiles and verdicts", async () => {
    const result = await runLoad(parseScenario(scenarioText(passing), "load.yaml"), { calls: 4, apps });
    const merged = await mergeLoadResults([asWritten(result) as LoadResult]);
    expect(merged.metrics).toEqual(result.metrics);
    expect(merged.thresholds).toEqual(result.thresholds);
    expect(merged).toMatchObject({ calls: 4, passedCalls: 4, passed: true, counts: result.counts });
  });

  it("holds the thresholds again against the figures together, not each shard's verdict", async () => {
    const h = await loadHdr();
    const loaded = parseScenario(
      scenarioText(`    response_latency: { p50: "< 500ms" }\n    turns: 2`),
      "load.yaml",
    );
    const agentThresholds = loaded.scenario.expect?.agent;
    const turn = (ms: number): TurnRecord => ({
      n: 1,
      by: "speech",
      startedAt: 0,
      endedAt: 500,
      owed: true,
      answered: true,
      late: false,
      responseMs: ms,
      speakingMs: 400,
      talkOverMs: 0,
      bargeIn: null,
      silencesMs: [],
    });
    // Shard 1 (calls 1-3) is fast, shard 2 (calls 4-6) slow: a p50 over all six is a fast one.
    const fast = createLoadGates(agentThresholds, h);
    const slow = createLoadGates(agentThresholds, h);
    for (const call of [1, 2, 3]) fast.observe({ c1: [turn(100)] }, call);
    for (const call of [6, 5, 4]) slow.observe({ c1: [turn(900)] }, call);
    expect(slow.results(loaded)[0]).toMatchObject({ passed: false, actual: 900 });
    const merged = gateResultsOf(
      h,
      agentThresholds,
      mergeGateStates(h, agentThresholds, [slow.state(), fast.state()]),
      () => null,
    );
    expect(merged[0]).toMatchObject({ path: "expect.agent.response_latency.p50", passed: true, actual: 100 });
    // Every call missed `turns: 2` by as much: the worst is the one placed first in the run, in any order.
    expect(merged[1]).toMatchObject({ path: "expect.agent.turns", passed: false, actual: 1 });
    expect(merged[1]!.message).toContain("missed 2 in 6 of 6 calls (worst: 1, call 1)");
  });

  it("fails the merged run for failed calls that each shard allowed", async () => {
    const text = scenarioText(passing).replace("status: completed", "status: busy");
    const shards = await Promise.all(
      [1, 2].map((index) =>
        runLoad(parseScenario(text), { calls: 2, apps, maxFailures: 1, shard: { index, count: 2 } }),
      ),
    );
    expect(shards.map((s) => s.passed)).toEqual([true, true]);
    const merged = await mergeLoadResults(shards.map((s, i) => ({ result: asWritten(s), label: `s${i}` })));
    expect(merged).toMatchObject({
      passed: false,
      calls: 2,
      failedCalls: 2,
      maxFailures: 1,
      mergedShards: 2,
    });
    expect(merged.failures.map((f) => f.call)).toEqual([1, 2]);
    expect(formatLoadResult(merged)).toContain("failed calls (2, at most 1 allowed):");
  });
});

describe("mergeLoadResults refuses what is not every shard of one run", () => {
  let shard1: unknown;
  let shard2: unknown;
  let otherScenario: unknown;
  beforeAll(async () => {
    const loaded = parseScenario(scenarioText(passing));
    const run = (index: number) => runLoad(loaded, { calls: 2, apps, shard: { index, count: 2 } });
    [shard1, shard2] = (await Promise.all([run(1), run(2)])).map(asWritten);
    const other = parseScenario(scenarioText(`    turns: ">= 1"`));
    otherScenario = asWritten(await runLoad(other, { calls: 2, apps, shard: { index: 2, count: 2 } }));
  });

  const merging = (...inputs: [string, unknown][]) =>
    mergeLoadResults(inputs.map(([label, result]) => ({ label, result })));

  it("merges the shards in any order", async () => {
    const merged = await merging(["b.json", shard2], ["a.json", shard1]);
    expect(merged).toMatchObject({ calls: 2, passedCalls: 2, passed: true });
    expect(merged.metrics.responseMs.count).toBe(2);
  });

  it.each([
    [
      "another scenario",
      () => [
        ["a.json", shard1],
        ["b.json", otherScenario],
      ],
      "b.json is a run of another scenario than a.json",
    ],
    [
      "a shard twice",
      () => [
        ["a.json", shard1],
        ["again.json", shard1],
      ],
      "again.json and a.json are both shard 1/2: their calls overlap",
    ],
    [
      "a missing shard",
      () => [["a.json", shard1]],
      "shard 2/2 (calls 2-2) missing: merge the results of all 2 shards",
    ],
    [
      "a run's other options",
      () => [
        ["a.json", shard1],
        ["b.json", { ...(shard2 as object), maxFailures: 3 }],
      ],
      "b.json is a shard of another run than a.json (--max-failures 3 where a.json has 0)",
    ],
    [
      "a file that is no load result",
      () => [
        ["a.json", shard1],
        ["b.json", { name: "x" }],
      ],
      "b.json: not the JSON result of a load run",
    ],
    [
      "a histogram that does not read",
      () => [
        ["a.json", shard1],
        ["b.json", withBadHistogram(shard2)],
      ],
      "a shard's figures do not read",
    ],
    ["nothing", () => [], "no results to merge"],
  ] as [string, () => [string, unknown][], string][])("%s", async (_, inputs, message) => {
    const merge = merging(...inputs());
    await expect(merge).rejects.toThrow(LoadMergeError);
    await expect(merge).rejects.toThrow(message);
  });
});

/** A copy of a shard's result whose response-latency histogram is not one. */
function withBadHistogram(result: unknown): unknown {
  const copy = structuredClone(result) as LoadResult;
  copy.mergeable.metrics.responseMs.histogram = "bm90IGEgaGlzdG9ncmFt";
  return copy;
}

describe("voice-sandbox load --shard and load merge", () => {
  const dir = mkdtempSync(join(tmpdir(), "load-shards-"));
  const file = join(dir, "agent.yaml");
  writeFileSync(file, scenarioText(passing));

  it("runs two shards in processes of their own and merges their results into the run's report", async () => {
    const before = agent.connections.length;
    const shardArgs = ["load", file, "--calls", "4", "--app", `agent=${apps.agent}`, "-r", "json"];
    const [one, two] = await Promise.all([
      runCli([...shardArgs, "--shard", "1/2", "-o", join(dir, "shard-1.json")]),
      runCli([...shardArgs, "-o", join(dir, "shard-2.json")], { VOICE_SANDBOX_LOAD_SHARD: "2/2" }),
    ]);
    expect([one.code, two.code], one.stderr + two.stderr).toEqual([0, 0]);
    expect(one.stdout).toContain("2 calls (shard 1/2: calls 1-2 of 4)");
    expect(two.stdout).toContain("2 calls (shard 2/2: calls 3-4 of 4)");
    expect(new Set(callSidsSince(before)).size).toBe(4);
    const merged = await runCli([
      "load",
      "merge",
      join(dir, "shard-2.json"),
      join(dir, "shard-1.json"),
      "-o",
      join(dir, "merged.json"),
      "--junit",
      join(dir, "merged.xml"),
    ]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/: 4 calls \(2 shards merged\), 4 at once, /);
    expect(merged.stdout).toMatch(/^response latency \(per turn\)\s+4\s+\d+ ms/m);
    expect(merged.stdout.trimEnd().endsWith("PASSED")).toBe(true);
    const report = JSON.parse(readFileSync(join(dir, "merged.json"), "utf8"));
    expect(report).toMatchObject({ passed: true, calls: 4, passedCalls: 4, mergedShards: 2 });
    expect(report.metrics.responseMs.count).toBe(4);
    expect(readFileSync(join(dir, "merged.xml"), "utf8")).toContain('<testsuites name="voice-sandbox load"');
  });

  it.each([
    [["--shard", "0/3"], {}, "shard must be from 1/3 to 3/3"],
    [["--shard", "4/3"], {}, "shard must be from 1/3 to 3/3"],
    [[], { VOICE_SANDBOX_LOAD_SHARD: "a/b" }, "--shard must be i/n"],
    [["--shard", "3/3"], {}, "3 shards are more than the run's 2 calls"],
  ] as [string[], Record<string, string>, string][])(
    "%j %j is a usage error (exit code 2)",
    async (args, env, message) => {
      const ran = await runCli(["load", file, "--calls", "2", "--app", `agent=${apps.agent}`, ...args], env);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain(message);
    },
  );

  it("exits 2 for files that are not every shard's result", async () => {
    const notJson = join(dir, "not.json");
    writeFileSync(notJson, "load: not json");
    const ran = await runCli(["load", "merge", notJson, join(dir, "missing.json")]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`voice-sandbox load merge: ${notJson}: not JSON`);
    const missing = await runCli(["load", "merge", join(dir, "missing.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing.json: cannot read it (ENOENT)");
  });
});
