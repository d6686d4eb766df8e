// Sustained form POST: POST .../Messages.json for a minute against the standalone server (as npm start and the Docker image run it, then as plain node), first 10 s against last 10 s, and against a bare node:http server parsing the same form.
import type { ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import {
  authorization,
  envNumber,
  fmt,
  formContentType,
  messageForm,
  messagesPath,
  richFixtures,
  runInChild,
  startScriptNodeFlags,
  verdict,
} from "./lib.js";
import type { FloorResult } from "./message-floor.js";
import { autocannon, exited, type Recorded, startBareServer } from "./server-vs-bare.js";
import { startProbedServer } from "./steady-load.js";

const target = 0.25;
/** Heap kept per message over the run, after a full collection: at most this many bytes. */
const heapTarget = 1024;
const path = messagesPath;
const form = messageForm;
const contentType = formContentType;
/** Seconds of load before each server's measured runs, not measured. */
const warmUpSeconds = 5;
/** What autocannon sends, the sandbox and the bare server alike. */
const load = { method: "POST", body: form, contentType };

/** One way of running the server, and how it held up over the run. */
export interface SustainedRun {
  /** How Node ran it: "npm start and the Docker image", or "plain node (npx)". */
  label: string;
  flags: string[];
  /** Mean requests per second over the run. */
  rate: number;
  ratio: number;
  /** Requests per second over the last 10 s divided by the first 10 s. */
  drift: number;
  /** Messages created over the run. */
  messages: number;
  /**
   * The heap's growth over the run per message created, in bytes: `live` as it stood at the end (garbage not
   * yet collected included), `kept` after a full collection at both ends.
   */
  heapPerMessage: { live: number; kept: number };
}

export interface SustainedResult {
  name: string;
  /** The server as `npm start` and the Docker image run it (their Node flags). */
  ours: number;
  baseline: number;
  ratio: number;
  target: number;
  /** Each way of running the server, the shipped flags first, with its drift. */
  runs: SustainedRun[];
  /** Bytes of heap kept per message at most. */
  heapTarget: number;
  /**
   * What a message costs in-process (bench/message-floor.ts) against the time a request has at the target:
   * in all (`requestUs`), and beyond the bare server's own (`budgetUs`). Microseconds, measured in this run.
   */
  floor: FloorResult & { requestUs: number; budgetUs: number };
  failed: boolean;
}

function post(url: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", headers: { authorization, "content-type": contentType } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", reject);
    req.end(form);
  });
}

/** Drift within this fraction of the first 10 s passes. */
const driftTolerance = 0.1;
const driftVerdict = (drift: number) => (Math.abs(1 - drift) <= driftTolerance ? "PASS" : "DRIFTS");

interface Way {
  label: string;
  flags: string[];
}

interface Measured extends Way {
  rates: number[];
  bad: number;
  recorded: Recorded;
  messages: number;
  heapPerMessage: { live: number; kept: number };
}

/**
 * One way of running the server: a warm-up, then `segments` x 10 s of POSTs, the heap probed
 * (bench/server-probe.cjs) after the first message and at the end, as it stands and after a full collection.
 * `beforeLoad` runs after the first message, while the server waits idle (the bare server's first run). The server
 * is stopped before the next way starts: two servers would share the machine's two cores.
 */
async function sustain(
  way: Way,
  segments: number,
  connections: number,
  children: ChildProcess[],
  beforeLoad?: (recorded: Recorded) => Promise<void>,
) {
  const ours = await startProbedServer(
    ["--host", "127.0.0.1", "--fixtures", richFixtures()],
    [...way.flags, "--expose-gc"],
  );
  children.push(ours.child);
  try {
    const recorded = await post(ours.url + path);
    if (recorded.status !== 201)
      throw new Error(`POST ${path} answered ${recorded.status}: ${recorded.body}`);
    await beforeLoad?.(recorded);
    const start = await ours.probe(true);
    console.log(`  ${way.label}${way.flags.length ? ` (node ${way.flags.join(" ")})` : ""}`);
    const rates: number[] = [];
    let bad = 0;
    let messages = 0;
    // A warm-up first, as for the bare server: the rates are of code the JIT has compiled, and the drift is then
    // the store's, not the compiler's. Its messages count in the heap per message, as the probe was before it.
    const warm = await autocannon(ours.url + path, warmUpSeconds, connections, load);
    bad += warm.bad;
    messages += warm.requests - warm.bad;
    for (let i = 0; i < segments; i++) {
      const s = await autocannon(ours.url + path, 10, connections, load);
      rates.push(s.requests / s.seconds);
      bad += s.bad;
      messages += s.requests - s.bad;
      console.log(
        `    ${String((i + 1) * 10).padStart(3)} s voice-sandbox ${fmt(rates[i]!).padStart(8)} req/s  p50 ${s.p50} ms  p99 ${s.p99} ms${s.bad ? `  BAD ${s.bad}` : ""}`,
      );
    }
    const live = await ours.probe(false);
    const kept = await ours.probe(true);
    const perMessage = (end: number) => (end - start.memory.heapUsed) / Math.max(messages, 1);
    const heapPerMessage = { live: perMessage(live.memory.heapUsed), kept: perMessage(kept.memory.heapUsed) };
    return { ...way, rates, bad, recorded, messages, heapPerMessage } satisfies Measured;
  } finally {
    await ours.stop();
  }
}

export async function benchSustainedPost(): Promise<SustainedResult> {
  const seconds = envNumber("BENCH_SUSTAINED_SECONDS", 60);
  const connections = Math.round(envNumber("BENCH_CONNECTIONS", 50));
  const segments = Math.max(2, Math.round(seconds / 10));
  // The young generation's size decides how fast the old one grows under this load (docs/decisions.md), and Node
  // reads it only at start: the server runs once as npm start and the Docker image run it, once as plain node.
  const ways = [
    { label: "npm start and the Docker image", flags: startScriptNodeFlags() },
    { label: "plain node (npx)", flags: [] },
  ].slice(0, Math.max(1, Math.round(envNumber("BENCH_SUSTAINED_WAYS", 2))));
  const children: ChildProcess[] = [];
  let bad = 0;
  let recorded: Recorded | undefined;
  try {
    console.log(
      `Sustained POST ${path} (form, HTTP Basic), ${connections} connections, ${segments} x 10 s for each way of running the server, the bare server 10 s before and 10 s after, each after ${warmUpSeconds} s of warm-up`,
    );
    // The bare server's two runs bracket the sandbox's: one before its first minute, one after its last, so a
    // machine that speeds up or slows down over the benchmark moves both sides of the ratio alike. It replays
    // the sandbox's first answer, and runs alone: the sandbox waits idle meanwhile, its one message delivered.
    const bareRates: number[] = [];
    const bareRun = async (from: Recorded) => {
      const bare = await startBareServer(from, "bench/bare-form-server.mjs");
      children.push(bare.child);
      bad += (await autocannon(bare.url + path, warmUpSeconds, connections, load)).bad;
      const s = await autocannon(bare.url + path, 10, connections, load);
      bareRates.push(s.requests / s.seconds);
      bad += s.bad;
      console.log(
        `    bare node:http ${fmt(s.requests / s.seconds).padStart(8)} req/s (${bareRates.length === 1 ? "before" : "after"})`,
      );
      bare.child.kill("SIGTERM");
      if (!exited(bare.child)) await new Promise((r) => bare.child.once("exit", r));
    };
    const measured: Measured[] = [];
    for (const way of ways) {
      const run = await sustain(way, segments, connections, children, recorded ? undefined : bareRun);
      recorded ??= run.recorded;
      bad += run.bad;
      measured.push(run);
    }
    await bareRun(recorded!);
    const bareRate = bareRates.reduce((a, b) => a + b, 0) / bareRates.length;
    // At the target the server has 1 / (target x bare rate) a request in all, and what is left of it after the
    // bare server's own 1 / bare rate is all a message may add (if the bare server, not the load generator, set
    // the bare rate). Set against them: a message through the core with no sockets, and its store writes alone,
    // in a process of its own with the flags npm start uses.
    const requestUs = 1e6 / (target * bareRate);
    const budgetUs = requestUs - 1e6 / bareRate;
    const floor = {
      ...(await runInChild<FloorResult>("bench/message-floor.ts", [], ["--expose-gc", ...ways[0]!.flags])),
      requestUs,
      budgetUs,
    };
    const runs: SustainedRun[] = measured.map(({ label, flags, rates, messages, heapPerMessage }) => {
      const rate = rates.reduce((a, b) => a + b, 0) / rates.length;
      const drift = rates[rates.length - 1]! / rates[0]!;
      return { label, flags, rate, ratio: rate / bareRate, drift, messages, heapPerMessage };
    });
    for (const run of runs) {
      console.log(
        `  ${run.label}: ratio ours/bare ${run.ratio.toFixed(2)} (target >= ${target}) ${verdict(run.ratio, target)}; last 10 s / first 10 s ${run.drift.toFixed(2)} (target within 10%) ${driftVerdict(run.drift)}`,
      );
      const { live, kept } = run.heapPerMessage;
      console.log(
        `    heap per message over ${fmt(run.messages)} messages: ${fmt(live)} B as it stood, ${fmt(kept)} B after a full collection (target <= ${heapTarget}) ${kept <= heapTarget ? "PASS" : "FAIL"}`,
      );
    }
    console.log(
      `  at ${target} a request has ${floor.requestUs.toFixed(1)} us in all; a whole message through the core (no sockets) takes ${floor.throughCoreUs.toFixed(1)} us in-process (${(floor.throughCoreUs / floor.requestUs).toFixed(2)}x it)`,
    );
    console.log(
      `  beyond the bare server's own time it has ${floor.budgetUs.toFixed(1)} us; the message's store writes alone (rows, index filings, charge, five events) take ${floor.withEventsUs.toFixed(1)} us (${(floor.withEventsUs / floor.budgetUs).toFixed(2)}x), ${floor.withoutEventsUs.toFixed(1)} us without the events`,
    );
    if (bad > 0) console.log(`  FAILED: ${bad} non-2xx responses, errors or timeouts`);
    console.log("");
    const shipped = runs[0]!;
    return {
      name: "sustained POST vs bare",
      ours: shipped.rate,
      baseline: bareRate,
      ratio: shipped.ratio,
      target,
      runs,
      heapTarget,
      floor,
      failed: bad > 0,
    };
  } finally {
    for (const child of children) if (!exited(child)) child.kill("SIGTERM");
    await Promise.all(
      children.map((child) => (exited(child) ? undefined : new Promise((r) => child.once("exit", r)))),
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSustainedPost();
