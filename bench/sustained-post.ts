// Sustained form POST: POST .../Messages.json for a minute against the standalone server, first 10 s against last 10 s, and against a bare node:http server parsing the same form.
import type { ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import { accountSid, authorization, envNumber, fmt, verdict } from "./lib.js";
import { autocannon, exited, type Recorded, startBareServer, startSandboxServer } from "./server-vs-bare.js";

const target = 0.4;
const path = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
const form = "To=%2B15558675310&From=%2B14155550100&Body=Sustained+load";
const contentType = "application/x-www-form-urlencoded";

export interface SustainedResult {
  name: string;
  ours: number;
  baseline: number;
  ratio: number;
  target: number;
  /** Requests per second over the last 10 s divided by the first 10 s. */
  drift: number;
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

export async function benchSustainedPost(): Promise<SustainedResult> {
  const seconds = envNumber("BENCH_SUSTAINED_SECONDS", 60);
  const connections = Math.round(envNumber("BENCH_CONNECTIONS", 50));
  const segments = Math.max(2, Math.round(seconds / 10));
  const children: ChildProcess[] = [];
  try {
    const ours = await startSandboxServer();
    children.push(ours.child);
    const recorded = await post(ours.url + path);
    if (recorded.status !== 201)
      throw new Error(`POST ${path} answered ${recorded.status}: ${recorded.body}`);
    const bare = await startBareServer(recorded, "bench/bare-form-server.mjs");
    children.push(bare.child);
    const load = { method: "POST", body: form, contentType };
    console.log(
      `Sustained POST ${path} (form, HTTP Basic), ${connections} connections, ${segments} x 10 s, then the bare server 2 x 10 s`,
    );
    const rates: number[] = [];
    let bad = 0;
    for (let i = 0; i < segments; i++) {
      const s = await autocannon(ours.url + path, 10, connections, load);
      rates.push(s.requests / s.seconds);
      bad += s.bad;
      console.log(
        `    ${String((i + 1) * 10).padStart(3)} s voice-sandbox ${fmt(rates[i]!).padStart(8)} req/s  p50 ${s.p50} ms  p99 ${s.p99} ms${s.bad ? `  BAD ${s.bad}` : ""}`,
      );
    }
    const bareRates: number[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await autocannon(bare.url + path, 10, connections, load);
      bareRates.push(s.requests / s.seconds);
      bad += s.bad;
      console.log(`    bare node:http ${fmt(bareRates[i]!).padStart(8)} req/s`);
    }
    const oursRate = rates.reduce((a, b) => a + b, 0) / rates.length;
    const bareRate = bareRates.reduce((a, b) => a + b, 0) / bareRates.length;
    const drift = rates[rates.length - 1]! / rates[0]!;
    const ratio = oursRate / bareRate;
    console.log(`  ratio ours/bare ${ratio.toFixed(2)} (target >= ${target}) ${verdict(ratio, target)}`);
    console.log(
      `  last 10 s / first 10 s ${drift.toFixed(2)} (target within 10%) ${Math.abs(1 - drift) <= 0.1 ? "PASS" : "DRIFTS"}`,
    );
    if (bad > 0) console.log(`  FAILED: ${bad} non-2xx responses, errors or timeouts`);
    console.log("");
    return {
      name: "sustained POST vs bare",
      ours: oursRate,
      baseline: bareRate,
      ratio,
      target,
      drift,
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
