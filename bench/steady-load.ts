// Steady mixed load (`npx tsx bench/steady-load.ts`): the built server with a data directory, a fixed rate of message creates, calls that finish, lists and fetches, and per minute its memory, its latency and its pauses.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { accountSid, authorization, envNumber, repoRoot, richFixtures, startScriptNodeFlags } from "./lib.js";

export { richFixtures };

/** What the server's probe (bench/server-probe.cjs) answers. */
export interface Probe {
  memory: NodeJS.MemoryUsage;
  loop: { p50Ms: number; p99Ms: number; maxMs: number };
  gc: { count: number; totalMs: number; maxMs: number; major: number; majorMs: number; majorMaxMs: number };
  /** V8's heap spaces: bytes reserved and used. */
  spaces: { name: string; size: number; used: number }[];
}

export interface SteadyMinute {
  minute: number;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  rssMb: number;
  heapMb: number;
  externalMb: number;
  probe: Probe;
}

export interface SteadyResult {
  minutes: SteadyMinute[];
  rate: number;
  /** Last minute's RSS over the first minute's. */
  rssRatio: number;
  /** Over the whole run, past the first minute. */
  p99Ms: number;
  errors: number;
  dataDir: string;
}

/** A server started from the build, with the probe loaded, and its IPC answers. */
export interface ProbedServer {
  child: ChildProcess;
  url: string;
  probe(collect?: boolean): Promise<Probe>;
  heapSnapshot(path: string): Promise<string>;
  stop(): Promise<void>;
}

/** Fixtures whose accounts' balances last any run, so admission never refuses a call or a message. */

export async function startProbedServer(args: string[], nodeFlags: string[] = []): Promise<ProbedServer> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("VOICE_SANDBOX_")),
  );
  const portFile = join(mkdtempSync(join(tmpdir(), "voice-sandbox-port-")), "port");
  const child = spawn(
    process.execPath,
    [
      ...nodeFlags,
      "--require",
      join(repoRoot, "bench/server-probe.cjs"),
      join(repoRoot, "dist/server/cli.cjs"),
      "serve",
      "--port",
      "0",
      "--port-file",
      portFile,
      "--log-level",
      "warn",
      ...args,
    ],
    { cwd: repoRoot, env, stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  const waiting = new Map<string, (value: unknown) => void>();
  child.on("message", (message: { type: string }) => {
    waiting.get(message.type)?.(message);
    waiting.delete(message.type);
  });
  const ask = <T>(type: string, extra: object = {}) =>
    new Promise<T>((resolve) => {
      waiting.set(type, resolve as (value: unknown) => void);
      child.send({ type, ...extra });
    });
  let url: string | undefined;
  for (let i = 0; i < 600 && !url; i++) {
    try {
      const port = readFileSync(portFile, "utf8").trim();
      if (port) url = `http://127.0.0.1:${port}`;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (!url) await sleep(50);
  }
  if (!url) {
    child.kill();
    throw new Error("the sandbox server did not start");
  }
  return {
    child,
    url,
    probe: (collect = false) => ask<Probe>("probe", { collect }),
    heapSnapshot: async (path) => (await ask<{ file: string }>("heap-snapshot", { path })).file,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

const carrierAuthorization = "Bearer carrier_sandbox_key_0000000000000000";

/**
 * One request on a kept-alive connection: its status, body and real milliseconds. `as`: the account with a
 * form body (the default), the admin API with a JSON body, or the carrier.
 */
export function call(
  base: string,
  method: string,
  path: string,
  body?: string,
  as: "form" | "json" | "carrier" = "form",
): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  const headers: Record<string, string> =
    as === "carrier"
      ? { authorization: carrierAuthorization }
      : as === "json"
        ? { "content-type": "application/json" }
        : {
            authorization,
            ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
          };
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          ms: performance.now() - started,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const account = `/2010-04-01/Accounts/${accountSid}`;
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
const mb = (bytes: number) => bytes / 1024 / 1024;

/**
 * The mix, per 20 requests: 8 message creates, 2 calls (markup that speaks and hangs up, one in four recorded),
 * 4 list pages (calls, messages) and 6 fetches of a record made a little earlier.
 */
function requestFor(n: number, recent: { calls: string[]; messages: string[] }): [string, string, string?] {
  const slot = n % 20;
  if (slot < 8)
    return [
      "POST",
      `${account}/Messages.json`,
      `To=%2B1555867${String(1000 + (n % 9000)).padStart(4, "0")}&From=%2B14155550100&Body=Steady+load+${n}`,
    ];
  if (slot < 10) {
    const record = n % 4 === 0 ? "&Record=true" : "";
    return [
      "POST",
      `${account}/Calls.json`,
      `To=%2B1555867${String(1000 + (n % 9000)).padStart(4, "0")}&From=%2B14155550100&Twiml=${encodeURIComponent("<Response><Say>Steady load</Say><Hangup/></Response>")}${record}`,
    ];
  }
  if (slot < 12) return ["GET", `${account}/Calls.json?PageSize=20`];
  if (slot < 14) return ["GET", `${account}/Messages.json?PageSize=20`];
  const list = slot % 2 === 0 ? recent.calls : recent.messages;
  const sid = list[n % Math.max(1, list.length)];
  if (!sid) return ["GET", `${account}/Messages.json?PageSize=1`];
  return ["GET", `${account}/${sid.startsWith("CA") ? "Calls" : "Messages"}/${sid}.json`];
}

export async function runSteadyLoad(
  options: {
    minutes?: number;
    rate?: number;
    args?: string[];
    /** Minutes after which a heap snapshot is written (to compare object counts by constructor). */
    snapshotsAt?: number[];
    /** After the last minute, wait for calls to end, collect garbage and write a heap snapshot. */
    finalSnapshot?: boolean;
    /** Without a data directory (to tell what persistence costs). */
    memoryOnly?: boolean;
    /** More Node flags for the server (`--cpu-prof`, a heap limit). */
    nodeFlags?: string[];
    log?: (line: string) => void;
  } = {},
): Promise<SteadyResult> {
  const minutes = options.minutes ?? 12;
  const rate = options.rate ?? 200;
  const log = options.log ?? console.log;
  // BENCH_STEADY_DIR: where the data directory goes (a tmpfs such as /dev/shm takes the disk out of the figures).
  const dir = mkdtempSync(join(process.env.BENCH_STEADY_DIR ?? tmpdir(), "voice-sandbox-steady-"));
  const dataDir = join(dir, "data");
  const server = await startProbedServer(
    [
      ...(options.memoryOnly ? [] : ["--data-dir", dataDir]),
      "--fixtures",
      richFixtures(dir),
      ...(options.args ?? []),
    ],
    [...startScriptNodeFlags(), "--expose-gc", ...(options.nodeFlags ?? [])],
  );
  const recent = { calls: [] as string[], messages: [] as string[] };
  const result: SteadyMinute[] = [];
  let latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let allP99: number[] = [];
  const started = performance.now();
  const snapshotsAt = [...(options.snapshotsAt ?? [])];
  let sent = 0;
  let inFlight = 0;
  // Whether the data directory is writing a snapshot (its temporary file exists), sampled every 50 ms: the
  // latency of requests sent meanwhile is kept apart.
  let compacting = false;
  const watch = setInterval(() => {
    compacting = existsSync(join(dataDir, "snapshot.ndjson.tmp"));
  }, 50);
  const during: number[] = [];
  const outside: number[] = [];
  log(
    `Steady load: ${rate} req/s for ${minutes} min against dist/server/cli.cjs serve ${options.memoryOnly ? "" : `--data-dir ${dataDir} `}${(options.args ?? []).join(" ")}`,
  );
  try {
    for (let minute = 1; minute <= minutes; minute++) {
      const minuteEnd = started + minute * 60_000;
      while (performance.now() < minuteEnd) {
        // Open loop: the requests due by now are sent whether or not earlier ones have been answered.
        const due = Math.floor(((performance.now() - started) / 1000) * rate);
        for (; sent < due; sent++) {
          const [method, path, form] = requestFor(sent, recent);
          inFlight++;
          const whileCompacting = compacting;
          call(server.url, method, path, form).then(
            (answer) => {
              inFlight--;
              latencies.push(answer.ms);
              (whileCompacting ? during : outside).push(answer.ms);
              if (answer.status >= 400) {
                errors++;
                firstError ??= `${method} ${path} ${answer.status} ${answer.body.slice(0, 200)}`;
              } else if (method === "POST") {
                const sid = (JSON.parse(answer.body) as { sid: string }).sid;
                const list = sid.startsWith("CA") ? recent.calls : recent.messages;
                list.push(sid);
                if (list.length > 200) list.shift();
              }
            },
            (error: Error) => {
              inFlight--;
              errors++;
              firstError ??= `${method} ${path} ${error.message}`;
            },
          );
        }
        await sleep(5);
      }
      const probe = await server.probe();
      const sorted = latencies.sort((a, b) => a - b);
      const row: SteadyMinute = {
        minute,
        requests: sorted.length,
        errors,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        maxMs: sorted.at(-1) ?? 0,
        rssMb: mb(probe.memory.rss),
        heapMb: mb(probe.memory.heapUsed),
        externalMb: mb(probe.memory.external),
        probe,
      };
      if (minute > 1) allP99 = allP99.concat(sorted);
      latencies = [];
      result.push(row);
      log(
        `  ${String(minute).padStart(3)} min  ${String(row.requests).padStart(6)} req  p50 ${row.p50Ms.toFixed(1)} ms  p99 ${row.p99Ms.toFixed(1)} ms  max ${row.maxMs.toFixed(0)} ms  RSS ${row.rssMb.toFixed(0)} MB  heap ${row.heapMb.toFixed(0)}/${mb(probe.memory.heapTotal).toFixed(0)} MB  ext ${row.externalMb.toFixed(0)} MB  loop p99 ${probe.loop.p99Ms.toFixed(1)} max ${probe.loop.maxMs.toFixed(0)} ms  gc ${probe.gc.count} ${probe.gc.totalMs.toFixed(0)} ms (max ${probe.gc.maxMs.toFixed(0)}, major ${probe.gc.major} ${probe.gc.majorMs.toFixed(0)} ms max ${probe.gc.majorMaxMs.toFixed(0)})  errors ${errors}  in flight ${inFlight}`,
      );
      if (snapshotsAt[0] === minute) {
        snapshotsAt.shift();
        const file = await server.heapSnapshot(join(dir, `minute-${minute}.heapsnapshot`));
        log(`  heap snapshot: ${file}`);
      }
    }
    if (options.finalSnapshot) {
      // The load stopped: once the calls under way are over, what the heap still holds is what stays.
      await sleep(15_000);
      const settled = await server.probe(true);
      log(
        `  after the load, collected: RSS ${mb(settled.memory.rss).toFixed(0)} MB heap ${mb(settled.memory.heapUsed).toFixed(0)}/${mb(settled.memory.heapTotal).toFixed(0)} MB`,
      );
      log(`  heap snapshot: ${await server.heapSnapshot(join(dir, "final.heapsnapshot"))}`);
    }
  } finally {
    clearInterval(watch);
    await server.stop();
  }
  if (!options.memoryOnly) {
    const sortedDuring = during.sort((a, b) => a - b);
    const sortedOutside = outside.sort((a, b) => a - b);
    log(
      `  while a snapshot was written: ${sortedDuring.length} requests, p50 ${percentile(sortedDuring, 50).toFixed(1)} ms, p99 ${percentile(sortedDuring, 99).toFixed(1)} ms; otherwise ${sortedOutside.length}, p50 ${percentile(sortedOutside, 50).toFixed(1)} ms, p99 ${percentile(sortedOutside, 99).toFixed(1)} ms`,
    );
  }
  if (firstError) log(`  first error: ${firstError}`);
  const sortedAll = allP99.sort((a, b) => a - b);
  const steady: SteadyResult = {
    minutes: result,
    rate,
    rssRatio: result.at(-1)!.rssMb / result[0]!.rssMb,
    p99Ms: percentile(sortedAll, 99),
    errors,
    dataDir,
  };
  log(
    `  RSS ${result[0]!.rssMb.toFixed(0)} MB after the first minute, ${result.at(-1)!.rssMb.toFixed(0)} MB after the last: ratio ${steady.rssRatio.toFixed(2)}; p99 ${steady.p99Ms.toFixed(1)} ms past the first minute; ${errors} errors`,
  );
  if (!process.env.BENCH_STEADY_KEEP) rmSync(dir, { recursive: true, force: true });
  return steady;
}

/** Lets the process end: the kept-alive connections are closed. */
export const closeConnections = () => agent.destroy();

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = (process.env.BENCH_STEADY_ARGS ?? "").split(" ").filter(Boolean);
  const snapshotsAt = (process.env.BENCH_STEADY_SNAPSHOTS ?? "").split(",").filter(Boolean).map(Number);
  await runSteadyLoad({
    minutes: envNumber("BENCH_STEADY_MINUTES", 12),
    rate: envNumber("BENCH_STEADY_RATE", 200),
    args,
    snapshotsAt,
    finalSnapshot: process.env.BENCH_STEADY_FINAL_SNAPSHOT === "1",
    memoryOnly: process.env.BENCH_STEADY_MEMORY_ONLY === "1",
    nodeFlags: (process.env.BENCH_STEADY_NODE_FLAGS ?? "").split(" ").filter(Boolean),
  });
  closeConnections();
}
