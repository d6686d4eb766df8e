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
  runInChild,
  startScriptNodeFlags,
  verdict,
} from "./lib.js";
import type { FloorResult } from "./message-floor.js";
import { autocannon, exited, type Recorded, startBareServer, startSandboxServer } from "./server-vs-bare.js";

const target = 0.4;
const path = messagesPath;
const form = messageForm;
const contentType = formContentType;

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

export async function benchSustainedPost(): Promise<SustainedResult> {
  const seconds = envNumber("BENCH_SUSTAINED_SECONDS", 60);
  const connections = Math.round(envNumber("BENCH_CONNECTIONS", 50));
  const segments = Math.max(2, Math.round(seconds / 10));
  const load = { method: "POST", body: form, contentType };
  // The young generation's size decides how fast the old one grows under this load (docs/decisions.md), and Node
  // reads it only at start: the server runs once as npm start and the Docker image run it, once as plain node.
  const ways = [
    { label: "npm start and the Docker image", flags: startScriptNodeFlags() },
    { label: "plain node (npx)", flags: [] },
  ];
  const children: ChildProcess[] = [];
  let bad = 0;
  let recorded: Recorded | undefined;
  try {
    console.log(
      `Sustained POST ${path} (form, HTTP Basic), ${connections} connections, ${segments} x 10 s for each way of running the server, then the bare server 2 x 10 s`,
    );
    const measured: { label: string; flags: string[]; rates: number[] }[] = [];
    for (const way of ways) {
      const ours = await startSandboxServer(way.flags);
      children.push(ours.child);
      const first = await post(ours.url + path);
      if (first.status !== 201) throw new Error(`POST ${path} answered ${first.status}: ${first.body}`);
      recorded ??= first;
      console.log(`  ${way.label}${way.flags.length ? ` (node ${way.flags.join(" ")})` : ""}`);
      const rates: number[] = [];
      for (let i = 0; i < segments; i++) {
        const s = await autocannon(ours.url + path, 10, connections, load);
        rates.push(s.requests / s.seconds);
        bad += s.bad;
        console.log(
          `    ${String((i + 1) * 10).padStart(3)} s voice-sandbox ${fmt(rates[i]!).padStart(8)} req/s  p50 ${s.p50} ms  p99 ${s.p99} ms${s.bad ? `  BAD ${s.bad}` : ""}`,
        );
      }
      // Stopped before the next starts: two servers would share the machine's two cores.
      ours.child.kill("SIGTERM");
      if (!exited(ours.child)) await new Promise((r) => ours.child.once("exit", r));
      measured.push({ ...way, rates });
    }
    const bare = await startBareServer(recorded!, "bench/bare-form-server.mjs");
    children.push(bare.child);
    const bareRates: number[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await autocannon(bare.url + path, 10, connections, load);
      bareRates.push(s.requests / s.seconds);
      bad += s.bad;
      console.log(`    bare node:http ${fmt(bareRates[i]!).padStart(8)} req/s`);
    }
    const bareRate = bareRates.reduce((a, b) => a + b, 0) / bareRates.length;
    bare.child.kill("SIGTERM");
    if (!exited(bare.child)) await new Promise((r) => bare.child.once("exit", r));
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
    const runs: SustainedRun[] = measured.map(({ label, flags, rates }) => {
      const rate = rates.reduce((a, b) => a + b, 0) / rates.length;
      return { label, flags, rate, ratio: rate / bareRate, drift: rates[rates.length - 1]! / rates[0]! };
    });
    for (const run of runs) {
      console.log(
        `  ${run.label}: ratio ours/bare ${run.ratio.toFixed(2)} (target >= ${target}) ${verdict(run.ratio, target)}; last 10 s / first 10 s ${run.drift.toFixed(2)} (target within 10%) ${driftVerdict(run.drift)}`,
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
