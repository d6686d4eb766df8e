// Load runs: many concurrent calls of a scenario on the real clock against a live agent, the run's percentiles and thresholds.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoadUsageError, loadJunitReport, parseScenario, runLoad } from "../../src/index.js";
import { progressWriter } from "../../src/scenarios/load/cli.js";
import { createLoadGates } from "../../src/scenarios/load/gates.js";
import { loadHdr } from "../../src/scenarios/load/histograms.js";
import { formatLoadResult } from "../../src/scenarios/load/report.js";
import { createSampler } from "../../src/scenarios/load/samples.js";
import { runCli, scenarioText, startAgent, thinkMs } from "../support/load-agent.js";
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

describe("runLoad", () => {
  it("places every call, each with its own sids, and reports the run's percentiles", async () => {
    const progress: number[] = [];
    const before = agent.connections.length;
    const result = await runLoad(parseScenario(scenarioText(passing)), {
      calls: 20,
      concurrency: 10,
      apps,
      onProgress: (p) => progress.push(p.done),
    });
    expect(result.passed).toBe(true);
    expect(result).toMatchObject({
      calls: 20,
      concurrency: 10,
      passedCalls: 20,
      failedCalls: 0,
      erroredCalls: 0,
    });
    expect(agent.connections.length - before).toBe(20);
    // Every call is its own: its own call and stream sids.
    const starts = agent.connections.slice(before).map((c) => c.messages.find((m) => m.event === "start")!);
    expect(new Set(starts.map((m) => m.start.callSid)).size).toBe(20);
    expect(new Set(starts.map((m) => m.streamSid)).size).toBe(20);
    expect(progress).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(result.counts).toMatchObject({ turns: 20, answered: 20, unanswered: 0 });
    const response = result.metrics.responseMs;
    expect(response.count).toBe(20);
    expect(response.sampled).toBe(20);
    // Nearest rank: ordered, and none before the agent could have answered (its turn detection, then its thought).
    expect(response.min!).toBeLessThanOrEqual(response.p50!);
    expect(response.p50!).toBeLessThanOrEqual(response.p95!);
    expect(response.p95!).toBeLessThanOrEqual(response.p99!);
    expect(response.p99!).toBeLessThanOrEqual(response.max!);
    expect(response.min!).toBeGreaterThan(200 + thinkMs);
    expect(result.metrics.turns).toMatchObject({ count: 20, p50: 1, p99: 1 });
    expect(result.metrics.bargeInStopMs.count).toBe(0);
    expect(result.thresholds.map((t) => [t.path, t.passed])).toEqual([
      ["expect.agent.response_latency.p50", true],
      ["expect.agent.response_latency.p95", true],
      ["expect.agent.response_latency.p99", true],
      ["expect.agent.turns", true],
    ]);
    const table = formatLoadResult(result);
    expect(table).toMatch(/^metric\s+count\s+p50\s+p95\s+p99\s+min\s+max$/m);
    expect(table).toMatch(/^response latency \(per turn\)\s+20\s+\d+ ms/m);
    expect(table).toContain("frames: ");
    expect(table.trimEnd().endsWith("PASSED")).toBe(true);
  });

  it("fails the run when the whole run's percentile misses a threshold, saying where", async () => {
    const result = await runLoad(
      parseScenario(scenarioText(`    response_latency: { p95: "< 1ms" }\n    turns: 5`), "load.yaml"),
      { calls: 4, concurrency: 2, apps },
    );
    expect(result.passed).toBe(false);
    expect(result.passedCalls).toBe(4);
    const [p95, turns] = result.thresholds;
    expect(p95).toMatchObject({
      path: "expect.agent.response_latency.p95",
      passed: false,
      expected: "< 1ms",
    });
    expect(p95!.where).toMatch(/^load\.yaml:\d+:\d+$/);
    expect(p95!.message).toMatch(/response latency p95 over 4 values of 4 calls is \d+ ms, expected < 1ms/);
    expect(turns).toMatchObject({ path: "expect.agent.turns", passed: false, actual: 1 });
    expect(turns!.message).toContain("missed 5 in 4 of 4 calls");
    const junit = loadJunitReport(result);
    expect(junit).toContain('failures="2"');
    expect(junit).toContain("<failure message=");
  });

  it("holds p99 bounds against the whole run's turns: a p99 past its bound fails where p95 passes", async () => {
    const loaded = parseScenario(
      scenarioText(
        `    response_latency: { p95: "<= 95ms", p99: "< 99ms" }\n    barge_in_stop: { p99: "<= 99ms" }`,
      ),
      "load.yaml",
    );
    const gates = createLoadGates(loaded.scenario.expect?.agent, await loadHdr());
    // 100 calls of one turn each: latencies 1..100 ms, and a barge-in stopped as fast.
    for (let ms = 1; ms <= 100; ms++)
      gates.observe({
        c1: [
          {
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
            bargeIn: { stopMs: ms, cut: true },
            silencesMs: [],
          },
        ],
      });
    const results = gates.results(loaded);
    expect(results.map((r) => [r.path, r.passed, r.actual])).toEqual([
      ["expect.agent.response_latency.p95", true, 95],
      ["expect.agent.response_latency.p99", false, 99],
      ["expect.agent.barge_in_stop.p99", true, 99],
    ]);
    expect(results[1]!.message).toBe(
      "the agents: response latency p99 over 100 values of 100 calls is 99 ms, expected < 99ms",
    );
    expect(results[1]!.where).toMatch(/^load\.yaml:\d+:\d+$/);
  });

  it("counts calls whose other expectations fail, and fails past --max-failures", async () => {
    const text = scenarioText(passing).replace("status: completed", "status: busy");
    const strict = await runLoad(parseScenario(text), { calls: 2, apps });
    expect(strict).toMatchObject({ passed: false, failedCalls: 2, concurrency: 2 });
    expect(strict.failures.map((f) => f.call)).toEqual([1, 2]);
    expect(strict.failures[0]!.message).toContain("expect.calls.c1.status");
    const lenient = await runLoad(parseScenario(text), { calls: 2, apps, maxFailures: 2 });
    expect(lenient.passed).toBe(true);
  });

  it("ends a call the scenario never hangs up at its time limit, and closes its agent's socket", async () => {
    const text = scenarioText(passing)
      .replace("name: one turn with the agent", "name: never hangs up\ntimeout: 3s")
      .replace("  - hangup: { call: c1 }\n    after: 2s\n", "")
      .replace("  calls: { c1: { status: completed } }\n", "");
    const before = agent.connections.length;
    const result = await runLoad(parseScenario(text), { calls: 2, apps });
    expect(result.calls).toBe(2);
    const sockets = agent.connections.slice(before).map((c) => c.socket);
    expect(sockets).toHaveLength(2);
    await Promise.all(
      sockets.map((socket) =>
        socket.readyState === socket.CLOSED
          ? undefined
          : new Promise((resolve) => socket.once("close", resolve)),
      ),
    );
    expect(sockets.every((socket) => socket.readyState === socket.CLOSED)).toBe(true);
  });

  it.each([
    [{ calls: 0 }, "calls must be a whole number, 1 or more"],
    [{ calls: 2.5 }, "calls must be a whole number"],
    [{ calls: 2, concurrency: 0 }, "concurrency must be a whole number, 1 or more"],
    [{ calls: 2, concurrency: 3 }, "concurrency (3) must not be more than calls (2)"],
    [{ calls: 2, agentTurnTimeout: "2m" }, "agentTurnTimeout must be from 0 to 1m"],
    [{ calls: 2, agentTurnTimeout: "soon" }, "agentTurnTimeout:"],
  ])("refuses %j before placing a call", async (options, message) => {
    const before = agent.connections.length;
    const error = await runLoad(parseScenario(scenarioText(passing)), { apps, ...options }).catch((e) => e);
    expect(error).toBeInstanceOf(LoadUsageError);
    expect((error as Error).message).toContain(message);
    expect(agent.connections.length).toBe(before);
  });

  it("refuses a scenario whose app has no URL", async () => {
    const error = await runLoad(parseScenario(scenarioText(passing)), { calls: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(LoadUsageError);
    expect((error as Error).message).toContain("needs the URL of app agent");
  });
});

describe("the run's samples", () => {
  it("keep at most their bound, with exact count, min and max", () => {
    const sampler = createSampler(100, 7);
    for (let i = 1; i <= 10_000; i++) sampler.add(i);
    const spread = sampler.spread();
    expect(spread).toMatchObject({ count: 10_000, min: 1, max: 10_000, sampled: 100 });
    expect(spread.p50!).toBeGreaterThan(spread.min!);
    expect(spread.p99!).toBeLessThanOrEqual(10_000);
  });
});

describe("the progress display", () => {
  const progressOf = (isTTY: boolean, total: number) => {
    let written = "";
    const writer = progressWriter({
      isTTY,
      write: (chunk: string | Uint8Array) => {
        written += String(chunk);
        return true;
      },
    });
    for (let done = 1; done <= total; done++)
      writer.update({ total, done, running: total - done, failed: 0, elapsedMs: done * 100 });
    writer.end();
    return written;
  };

  it("rewrites one line in place on a terminal", () => {
    const written = progressOf(true, 3);
    expect(written.split("\r\x1b[2K")).toHaveLength(4);
    expect(written.endsWith("load: 3/3 calls done, 0 running, 0 failed, 0.3 s\n")).toBe(true);
    expect(written.match(/\n/g)).toHaveLength(1);
  });

  it("prints a plain line every tenth of the run elsewhere", () => {
    const lines = progressOf(false, 50).trimEnd().split("\n");
    expect(lines).toHaveLength(10);
    expect(lines.every((line) => !line.includes("\r"))).toBe(true);
    expect(lines.at(-1)).toBe("load: 50/50 calls done, 0 running, 0 failed, 5.0 s");
  });
});

describe("voice-sandbox load", () => {
  const dir = mkdtempSync(join(tmpdir(), "load-"));
  const file = join(dir, "agent.yaml");
  writeFileSync(file, scenarioText(passing));

  it("prints the table and writes a JSON report", async () => {
    const out = join(dir, "load.json");
    const ran = await runCli([
      "load",
      file,
      "--calls",
      "4",
      "--concurrency",
      "2",
      "--app",
      `agent=${apps.agent}`,
      "-r",
      "json",
      "-o",
      out,
    ]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^metric\s+count\s+p50\s+p95\s+p99\s+min\s+max$/m);
    // Not a terminal: plain progress lines.
    expect(ran.stdout).toContain("load: 4/4 calls done");
    const report = JSON.parse(readFileSync(out, "utf8"));
    expect(report).toMatchObject({ passed: true, calls: 4, concurrency: 2, passedCalls: 4 });
    expect(report.metrics.responseMs.count).toBe(4);
  });

  it("exits 1 when a threshold fails", async () => {
    const failing = join(dir, "failing.yaml");
    writeFileSync(failing, scenarioText(`    response_latency: { p50: "< 1ms" }`));
    const ran = await runCli(["load", failing, "--calls", "2", "--app", `agent=${apps.agent}`]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain("FAIL");
    expect(ran.stdout).toContain("expect.agent.response_latency.p50");
  });

  it.each([
    [["load", join(dir, "missing.yaml"), "--calls", "2"], "no such scenario file"],
    [["load", file, "--calls", "0"], "--calls must be a whole number, 1 or more"],
    [["load", file, "--calls", "many"], "--calls must be a whole number"],
    [["load", file, "--calls", "2", "--concurrency", "5"], "concurrency (5) must not be more than calls (2)"],
    [["load", file, "--calls", "2", "--agent-turn-timeout", "2h"], "--agent-turn-timeout must be a duration"],
    [["run", file, "--agent-turn-timeout", "-1"], "--agent-turn-timeout must be a duration"],
  ])("%j is a usage error (exit code 2)", async (args, message) => {
    const ran = await runCli([...args, "--app", `agent=${apps.agent}`]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(message);
  });
});
