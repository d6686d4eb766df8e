// Benchmark: the most concurrent agent calls one load run holds with its frames on time, against the example CI agent
// (in a process of its own, as a team's agent would be) at rising concurrency.
import { fork } from "node:child_process";
import type * as Index from "../src/index.js";
import { distUrl } from "./lib.js";

/** One level of the climb: how many calls were placed, how many at once, and how their frames went. */
export interface CapacityLevel {
  concurrency: number;
  calls: number;
  /** Media frames the agent got, those the sandbox sent more than a frame's time late, and their share. */
  frames: number;
  lateFrames: number;
  droppedFrames: number;
  lateShare: number;
  /** How late frames arrived at the agent, against their stream's first frame (ms). */
  lateness: { p50Ms: number | null; p99Ms: number | null; maxMs: number | null };
  /** The run's response latency p95 (real time: turn detection, think time and the machine's delay). */
  responseP95Ms: number | null;
  failedCalls: number;
}

export interface LoadCapacityResult {
  name: string;
  levels: CapacityLevel[];
  /** The highest concurrency whose late frames stayed under `lateLimit` (null: not even the first). */
  held: number | null;
  lateLimit: number;
}

/** The example CI agent's call (examples/voice-agent-ci/load.yaml), its markup written here to reach the agent's socket. */
const scenario = `
name: a caller asks twice and is answered
apps: { agent: null }
numbers:
  - number: "+14155550100"
    voice: <Response><Connect><Stream url="{apps.agent}/media"/></Connect></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: hi I need to change my booking }
  - speak: { call: c1, text: thanks that is all }
  - hangup: { call: c1 }
expect:
  calls: { c1: { status: completed } }
`;

type AgentStats = { frames: number; p50Ms: number | null; p99Ms: number | null; maxMs: number | null };

/** Concurrency levels to climb (BENCH_LOAD_LEVELS, e.g. "25,50,100,200"); each places twice as many calls. */
function levels(): number[] {
  const raw = process.env.BENCH_LOAD_LEVELS ?? "25,50,100,200";
  const out = raw.split(",").map((v) => Number(v.trim()));
  if (out.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`BENCH_LOAD_LEVELS: whole numbers, got ${raw}`);
  return out;
}

export async function benchLoadCapacity(): Promise<LoadCapacityResult> {
  const { runLoad, parseScenario } = (await import(distUrl("index.js"))) as typeof Index;
  const lateLimit = 0.01;
  const child = fork(new URL("./load-agent.mjs", import.meta.url), {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = () => new Promise<unknown>((resolve) => child.once("message", resolve));
  const { url } = (await next()) as { url: string };
  const out: CapacityLevel[] = [];
  let held: number | null = null;
  try {
    const loaded = parseScenario(scenario);
    for (const concurrency of levels()) {
      const calls = concurrency * 2;
      const result = await runLoad(loaded, { calls, concurrency, apps: { agent: url } });
      child.send("stats");
      const stats = (await next()) as AgentStats;
      const { lateFrames, droppedFrames } = result.counts;
      const sent = stats.frames + droppedFrames;
      const level: CapacityLevel = {
        concurrency,
        calls,
        frames: stats.frames,
        lateFrames,
        droppedFrames,
        lateShare: sent > 0 ? lateFrames / sent : 0,
        lateness: { p50Ms: stats.p50Ms, p99Ms: stats.p99Ms, maxMs: stats.maxMs },
        responseP95Ms: result.metrics.responseMs.p95,
        failedCalls: result.failedCalls + result.erroredCalls,
      };
      out.push(level);
      console.log(
        `load capacity: ${concurrency} at once (${calls} calls): ${lateFrames} of ${sent} frames late (${(level.lateShare * 100).toFixed(2)}%), ${droppedFrames} dropped; lateness at the agent p50 ${ms(stats.p50Ms)} p99 ${ms(stats.p99Ms)} max ${ms(stats.maxMs)}; response p95 ${ms(level.responseP95Ms)}; ${level.failedCalls} calls failed`,
      );
      const onTime = level.lateShare < lateLimit && level.failedCalls === 0;
      if (!onTime) break;
      held = concurrency;
    }
  } finally {
    child.send("close");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  return { name: "load capacity", levels: out, held, lateLimit };
}

const ms = (v: number | null) => (v === null ? "-" : `${v.toFixed(1)} ms`);
