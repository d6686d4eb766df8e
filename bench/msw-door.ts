// Benchmark 2: the MSW door in-process against a one-handler MSW setup answering the same bytes.
import { pathToFileURL } from "node:url";
import { HttpResponse, http, type RequestHandler } from "msw";
import { setupServer } from "msw/node";
import type { createSandbox as CreateSandbox } from "../src/index.js";
import {
  authorization,
  type BenchResult,
  distUrl,
  envNumber,
  firstSid,
  fmt,
  itemPath,
  listPath,
  median,
  verdict,
} from "./lib.js";

const target = 0.8;

interface Run {
  rps: number;
  /** Non-2xx responses and rejected fetches. */
  bad: number;
}

interface Captured {
  status: number;
  headers: [string, string][];
  body: string;
}

async function capture(response: Response): Promise<Captured> {
  const headers: [string, string][] = [];
  response.headers.forEach((value, name) => {
    headers.push([name, value]);
  });
  return { status: response.status, headers, body: await response.text() };
}

/** Installs the handlers, runs the loop, uninstalls them: only one MSW interceptor is ever active. */
async function withHandlers<T>(handlers: RequestHandler[], body: () => Promise<T>): Promise<T> {
  const server = setupServer(...handlers);
  // An unmatched request must not go out to the network and be counted as a fast failure.
  server.listen({ onUnhandledRequest: "error" });
  try {
    return await body();
  } finally {
    server.close();
  }
}

/**
 * How many requests a loop makes between turns of the event loop. A mocked fetch settles in promise jobs alone,
 * so a loop that never waits for anything else never ends its task, and V8 keeps every object a WeakRef was
 * made to in a task alive until the task ends (undici makes some per fetch): measured with one msw handler,
 * ~9 KB of heap kept per request, and rates that fell from round to round, where a test suite, which returns to
 * the event loop between tests, keeps ~135 B.
 */
const requestsPerTurn = 100;

/** `concurrency` loops of fetch-and-read-body until the time is up. */
async function measure(url: string, seconds: number, concurrency: number): Promise<Run> {
  let done = 0;
  let bad = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      if (done % requestsPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
      try {
        const response = await fetch(url, { headers: { authorization } });
        // Reading the body is part of every real use, and leaves no stream half-consumed.
        await response.arrayBuffer();
        if (response.status < 200 || response.status > 299) bad++;
      } catch {
        bad++;
      }
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { rps: done / ((performance.now() - start) / 1000), bad };
}

export async function benchMswDoor(): Promise<BenchResult> {
  const seconds = envNumber("BENCH_MSW_SECONDS", 5);
  // Five rounds so one run hit by a burst of other load does not move the median.
  const rounds = Math.round(envNumber("BENCH_MSW_ROUNDS", 5));
  const concurrency = Math.round(envNumber("BENCH_MSW_CONCURRENCY", 4));
  const warmup = envNumber("BENCH_WARMUP_SECONDS", 2);

  // Types from src so typechecking does not depend on a build; the code from dist, as users get it.
  const { createSandbox } = (await import(distUrl("index.js"))) as { createSandbox: typeof CreateSandbox };
  const sandbox = createSandbox();
  const base = sandbox.baseUrl;

  const recorded = await withHandlers(sandbox.handlers, async () => {
    const list = await capture(await fetch(base + listPath, { headers: { authorization } }));
    if (list.status !== 200) throw new Error(`listing numbers answered ${list.status}: ${list.body}`);
    const path = itemPath(firstSid(list.body));
    return { path, ...(await capture(await fetch(base + path, { headers: { authorization } }))) };
  });
  if (recorded.status !== 200) throw new Error(`GET ${recorded.path} answered ${recorded.status}`);
  const url = base + recorded.path;

  // What a hand-written mock of this endpoint looks like: a parsed object, serialized again per request.
  const sameBody = JSON.parse(recorded.body) as Record<string, unknown>;
  const trivial = [
    http.get(url, () => HttpResponse.json(sameBody, { status: recorded.status, headers: recorded.headers })),
  ];
  const check = await withHandlers(trivial, async () =>
    capture(await fetch(url, { headers: { authorization } })),
  );
  if (
    check.status !== recorded.status ||
    check.body !== recorded.body ||
    JSON.stringify(check.headers) !== JSON.stringify(recorded.headers)
  ) {
    throw new Error("the one-handler setup does not reproduce the sandbox's response byte for byte");
  }

  const targets = [
    { name: "sandbox handlers", handlers: sandbox.handlers, runs: [] as Run[] },
    { name: "one http.get", handlers: trivial as RequestHandler[], runs: [] as Run[] },
  ];

  console.log("Benchmark 2: MSW door vs one-handler MSW (in-process, msw/node setupServer)");
  console.log(`  GET ${recorded.path}  (${Buffer.byteLength(recorded.body)} bytes, HTTP Basic)`);
  console.log(
    `  concurrency ${concurrency}, warm-up ${warmup} s each, then ${rounds} rounds x ${seconds} s per target, alternating`,
  );

  let bad = 0;
  for (const t of targets)
    bad += (await withHandlers(t.handlers, () => measure(url, warmup, concurrency))).bad;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const t of order) {
      const run = await withHandlers(t.handlers, () => measure(url, seconds, concurrency));
      t.runs.push(run);
      bad += run.bad;
      console.log(
        `    round ${round + 1} ${t.name.padEnd(16)} ${fmt(run.rps).padStart(8)} req/s${run.bad ? `  BAD ${run.bad}` : ""}`,
      );
    }
  }

  const [ours, baseline] = targets.map((t) => median(t.runs.map((r) => r.rps))) as [number, number];
  const ratio = ours / baseline;
  console.log(`  ${targets[0]!.name.padEnd(16)} ${fmt(ours).padStart(8)} req/s (median)`);
  console.log(`  ${targets[1]!.name.padEnd(16)} ${fmt(baseline).padStart(8)} req/s (median)`);
  console.log(`  ratio ours/trivial ${ratio.toFixed(2)}  (target >= ${target})  ${verdict(ratio, target)}`);
  // Each round's two runs ran back to back, so their ratio is the least disturbed by drift; shown as a spread.
  const paired = targets[0]!.runs.map((r, i) => r.rps / targets[1]!.runs[i]!.rps);
  console.log(
    `  per-round ratios ${paired.map((r) => r.toFixed(2)).join(" ")}  (median ${median(paired).toFixed(2)})`,
  );
  if (bad > 0) console.log(`  FAILED: ${bad} non-2xx responses or fetch errors`);
  console.log("");
  sandbox.clock.dispose();
  return { name: "MSW door vs one handler", ours, baseline, ratio, target, failed: bad > 0 };
}

// Run as its own process by bench/run.ts, so this benchmark's heap and JIT start clean.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchMswDoor();
  if (process.send) process.send(result);
  process.exitCode = result.failed ? 1 : 0;
}
