// The `agent` expectation and the reports' agent metrics: scenarios against real WebSocket agents that think in real time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSandboxCore,
  jsonReport,
  junitReport,
  type RunSummary,
  type ScenarioResult,
} from "../../src/index.js";
import type { StreamApp } from "../support/stream-app.js";
import {
  randomThink,
  type StreamAgent,
  startRelayAgent,
  startStreamAgent,
} from "../support/voice-agent-apps.js";

/** A media-stream agent: answers 220 ms after the caller's words end (a 200 ms lead-in), stops 100 ms into a barge-in. */
const streamScenario = (expectations: string) => `
name: a media-stream agent answers three turns and stops when the caller talks over it
apps:
  agent: null
numbers:
  - number: "+14155550100"
    voice: <Response><Connect><Stream url="{apps.agent}/media"/></Connect></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: hello there, for: 1s }
  - speak: { call: c1, text: stop, for: 600ms }
    on: { agent: talking }
    after: 300ms
  - speak: { call: c1, text: thanks, for: 500ms }
  - hangup: { call: c1 }
expect:
  calls: { c1: { status: completed } }
${expectations}`;

const passing = `  agent:
    call: c1
    turns: 3
    answered: 3
    unanswered: 0
    response_latency: { p50: 220ms, p95: "< 300ms", p99: "<= 220ms", max: "<= 220ms" }
    barge_ins: 1
    barge_in_stop: { p99: 100ms, max: "< 150ms" }
    talk_over: { total: "<= 100ms", max: 100ms }
    speaking: ">= 1s"
    longest_silence: "< 2s"
    silences: { longer_than: 1s, count: 1 }
`;

describe("the agent expectation", () => {
  let agent: StreamAgent;
  let relay: StreamApp;
  beforeAll(async () => {
    agent = await startStreamAgent({
      think: randomThink(300),
      leadInFrames: 10,
      answerFrames: 25,
      clearAfterFrames: 5,
    });
    relay = await startRelayAgent({ think: randomThink(300) });
  });
  afterAll(async () => {
    await agent.close();
    await relay.close();
  });

  const play = (yaml: string) => createSandboxCore().runScenario(yaml, { apps: { agent: agent.url("") } });

  it("holds against an agent that thinks 0-300 ms each turn: every bound met, the same report run after run", async () => {
    const runs: ScenarioResult[] = [];
    for (let i = 0; i < 2; i++) runs.push(await play(streamScenario(passing)));
    for (const run of runs) expect(run.failures, JSON.stringify(run.failures)).toEqual([]);
    const first = runs[0]!;
    expect(first.agents?.c1?.metrics).toMatchObject({
      turns: 3,
      responseMs: { p50: 220, p95: 220, p99: 220, max: 220 },
      bargeInStopMs: { p99: 100, max: 100 },
      talkOverMs: 100,
    });
    expect(first.agents?.c1?.turns.map((t) => [t.startedAt, t.endedAt])).toEqual([
      [1000, 1840],
      [2180, 2680],
      [4420, 4860],
    ]);
    // The real waits differ run to run; they are the only numbers besides the wall time that do.
    expect(first.thinkMs?.c1).toHaveLength(3);
    const summary = (result: ScenarioResult): RunSummary => ({
      results: [{ ...result, wallMs: 0, thinkMs: {} }],
      loadErrors: [],
      passed: 1,
      failed: 0,
      skipped: 0,
      errors: 0,
      wallMs: 0,
    });
    expect(jsonReport(summary(runs[1]!))).toBe(jsonReport(summary(first)));
    expect(junitReport(summary(runs[1]!))).toBe(junitReport(summary(first)));
    expect(junitReport(summary(first))).toContain(
      "agent c1: 3 turns (3 answered), response p50 220 ms p95 220 ms p99 220 ms max 220 ms, speaking 1220 ms, barge-ins 1 (stop max 100 ms), talk-over 100 ms, longest silence 1020 ms",
    );
  });

  it("a bound the agent misses fails with the value, the bound, each turn's value and the call's timeline", async () => {
    const result = await play(
      streamScenario(`  agent:
    call: c1
    response_latency: { p95: "< 200ms", p99: "< 220ms" }
    barge_in_stop: { p99: "< 100ms", max: "< 50ms" }
    silences: { longer_than: 500ms, count: 0 }
`),
    );
    expect(result.status).toBe("failed");
    expect(result.failures.map((f) => [f.path, f.message])).toEqual([
      [
        "expect.agent.response_latency.p95",
        "call c1's agent: response latency p95 is 220 ms, expected < 200ms (per turn: 1: 220 ms, 2: 220 ms, 3: 220 ms)",
      ],
      [
        "expect.agent.response_latency.p99",
        "call c1's agent: response latency p99 is 220 ms, expected < 220ms (per turn: 1: 220 ms, 2: 220 ms, 3: 220 ms)",
      ],
      [
        "expect.agent.barge_in_stop.p99",
        "call c1's agent: barge-in stop p99 is 100 ms, expected < 100ms (per turn: 2: 100 ms)",
      ],
      [
        "expect.agent.barge_in_stop.max",
        "call c1's agent: barge-in stop max is 100 ms, expected < 50ms (per turn: 2: 100 ms)",
      ],
      [
        "expect.agent.silences.count",
        "call c1's agent: silences longer than 500 ms is 1, expected 0 (1020 ms)",
      ],
    ]);
    expect(result.failures[0]!.where).toMatch(/:\d+:\d+$/);
    expect(result.failures[0]!.call?.timeline.some((line) => line.includes("agent.turn"))).toBe(true);
  });

  it("an expectation with no call holds every call's turns together; a ConversationRelay agent's too", async () => {
    const yaml = `
name: a relay agent answers at once in sandbox time
apps:
  agent: null
numbers:
  - number: "+14155550100"
    voice: <Response><Connect><ConversationRelay url="{apps.agent}/relay" welcomeGreeting="Hello, how can I help?"/></Connect></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: opening hours }
  - speak: { call: c1, text: thanks }
  - hangup: { call: c1 }
expect:
  agent:
    turns: 2
    unanswered: 0
    response_latency: { max: 0ms }
    barge_ins: 0
`;
    const result = await createSandboxCore().runScenario(yaml, { apps: { agent: relay.url("") } });
    expect(result.failures).toEqual([]);
    expect(result.agents?.c1?.metrics.turns).toBe(2);
  });

  it("a file with a bad bound does not load, and says what a bound looks like", async () => {
    const result = await createSandboxCore()
      .runScenario(
        streamScenario(`  agent:
    response_latency: { p99: "soon" }
`),
        { apps: { agent: agent.url("") } },
      )
      .catch((error: Error) => error);
    expect(String(result)).toContain('such as "< 800ms"');
  });
});
