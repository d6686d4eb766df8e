// Benchmark 1: the standalone server against a bare node:http server sending the same bytes, driven by autocannon.
import { type ChildProcess, spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import {
  authorization,
  type BenchResult,
  envNumber,
  firstSid,
  fmt,
  itemPath,
  listPath,
  median,
  repoRoot,
  richFixtures,
  verdict,
} from "./lib.js";

const target = 0.5;

export interface Recorded {
  status: number;
  /** Flat [name, value, name, value, ...] in the order and case the server sent them. */
  rawHeaders: string[];
  body: Buffer;
}

interface Segment {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  /** Non-2xx responses, transport errors and timeouts together: any of them spoils the comparison. */
  bad: number;
}

// Node's http server adds these itself on every response; copying them would freeze Date and duplicate the rest.
const generatedByNode = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

function get(url: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { authorization } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** A port nobody holds right now; the CLI needs a number, it cannot report back one it picked. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Starts `voice-sandbox serve` on a free port, Node given `nodeFlags` (none: as `npx voice-sandbox serve` runs it). */
export async function startSandboxServer(
  nodeFlags: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  // VOICE_SANDBOX_* settings from the caller's shell would change what is measured; the bench wants the defaults.
  // NODE_OPTIONS too: its flags (docs/configuration.md suggests one) would blur which way the server was run.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith("VOICE_SANDBOX_") && key !== "NODE_OPTIONS",
    ),
  );
  const profileDir = process.env["BENCH_CPU_PROF"];
  const profileFlags = profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
  const child = spawn(
    process.execPath,
    [
      ...profileFlags,
      ...nodeFlags,
      join(repoRoot, "dist/server/cli.cjs"),
      "serve",
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--log-level",
      "warn",
      // Balances that last the run: a sustained POST of messages would otherwise spend the fixtures' own.
      "--fixtures",
      richFixtures(),
    ],
    { cwd: repoRoot, env, stdio: ["ignore", "inherit", "inherit"] },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  // The CLI logs nothing at warn level once listening, so readiness is a health check that answers.
  while (Date.now() < deadline) {
    if (exited(child)) throw new Error(`the sandbox server exited early (code ${child.exitCode})`);
    try {
      if ((await get(`${url}/__sandbox/health`)).status === 200) return { child, url };
    } catch {
      // Not listening yet.
    }
    await sleep(50);
  }
  child.kill();
  throw new Error("the sandbox server did not answer /__sandbox/health within 15 s");
}

/** Starts a baseline server (`bench/bare-server.mjs` unless told otherwise) that replays `recorded`. */
export async function startBareServer(
  recorded: Recorded,
  script = "bench/bare-server.mjs",
): Promise<{ child: ChildProcess; url: string }> {
  const headers: string[] = [];
  for (let i = 0; i < recorded.rawHeaders.length; i += 2) {
    const name = recorded.rawHeaders[i]!;
    if (!generatedByNode.has(name.toLowerCase())) headers.push(name, recorded.rawHeaders[i + 1]!);
  }
  const child = spawn(process.execPath, [join(repoRoot, script)], {
    cwd: repoRoot,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (message) => resolve((message as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`the bare server exited early (code ${code})`)));
    child.send({ status: recorded.status, headers, body: recorded.body.toString("base64") });
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Same status, same headers in the same order and case (Date's value aside), same body bytes. */
function sameResponse(a: Recorded, b: Recorded): string | null {
  if (a.status !== b.status) return `status ${a.status} vs ${b.status}`;
  const shown = (r: Recorded) =>
    r.rawHeaders
      .map((value, i) => (i % 2 === 1 && r.rawHeaders[i - 1]!.toLowerCase() === "date" ? "<date>" : value))
      .join("\n");
  if (shown(a) !== shown(b)) return `headers differ:\n${shown(a)}\n---\n${shown(b)}`;
  if (!a.body.equals(b.body)) return "bodies differ";
  return null;
}

interface AutocannonJson {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  "2xx": number;
  requests: { total: number };
  latency: { p50: number; p99: number };
}

/** One autocannon run in its own process, so the load generator never shares a thread with a target. */
export function autocannon(
  url: string,
  seconds: number,
  connections: number,
  load?: { method: string; body: string; contentType: string },
): Promise<Segment> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      join(repoRoot, "node_modules/.bin/autocannon"),
      [
        "--json",
        "-c",
        String(connections),
        "-d",
        String(seconds),
        "-H",
        `authorization:${authorization}`,
        ...(load ? ["-m", load.method, "-b", load.body, "-H", `content-type:${load.contentType}`] : []),
        url,
      ],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        reject(new Error(`autocannon exited with ${code}: ${stderr.trim()}`));
        return;
      }
      try {
        const json = JSON.parse(stdout) as AutocannonJson;
        resolve({
          requests: json.requests.total,
          seconds: json.duration,
          p50: json.latency.p50,
          p99: json.latency.p99,
          bad: json.errors + json.timeouts + json.non2xx + (json["2xx"] === 0 ? 1 : 0),
        });
      } catch (error) {
        reject(new Error(`could not read autocannon's JSON output: ${(error as Error).message}`));
      }
    });
  });
}

function summarize(segments: Segment[]) {
  const requests = segments.reduce((sum, s) => sum + s.requests, 0);
  const seconds = segments.reduce((sum, s) => sum + s.seconds, 0);
  return {
    rps: requests / seconds,
    // autocannon's JSON gives percentiles, not histograms, so runs cannot be merged exactly.
    p50: segments.reduce((sum, s) => sum + s.p50, 0) / segments.length,
    p99: Math.max(...segments.map((s) => s.p99)),
    bad: segments.reduce((sum, s) => sum + s.bad, 0),
  };
}

/** Each round's two runs ran back to back, so their ratio is the least disturbed by drift; shown as a spread. */
function pairedRatios(ours: Segment[], bare: Segment[]): string {
  const rate = (s: Segment) => s.requests / s.seconds;
  const ratios = ours.map((s, i) => rate(s) / rate(bare[i]!));
  return `${ratios.map((r) => r.toFixed(2)).join(" ")}  (median ${median(ratios).toFixed(2)})`;
}

export async function benchServer(): Promise<BenchResult> {
  const seconds = envNumber("BENCH_SERVER_SECONDS", 12);
  // Several short alternations rather than one long run each: load from other work comes and goes in bursts.
  const rounds = Math.round(envNumber("BENCH_SERVER_ROUNDS", 4));
  const connections = Math.round(envNumber("BENCH_CONNECTIONS", 50));
  const warmup = envNumber("BENCH_WARMUP_SECONDS", 2);
  const segmentSeconds = Math.max(1, Math.round(seconds / rounds));

  const children: ChildProcess[] = [];
  try {
    const ours = await startSandboxServer();
    children.push(ours.child);
    const list = await get(ours.url + listPath);
    if (list.status !== 200) throw new Error(`listing numbers answered ${list.status}: ${list.body}`);
    const path = itemPath(firstSid(list.body.toString("utf8")));
    const recorded = await get(ours.url + path);
    if (recorded.status !== 200) throw new Error(`GET ${path} answered ${recorded.status}: ${recorded.body}`);

    const bare = await startBareServer(recorded);
    children.push(bare.child);
    const mismatch = sameResponse(recorded, await get(bare.url + path));
    if (mismatch) throw new Error(`the bare server does not reproduce the sandbox's response: ${mismatch}`);

    const targets = [
      { name: "voice-sandbox", url: ours.url + path, segments: [] as Segment[] },
      { name: "bare node:http", url: bare.url + path, segments: [] as Segment[] },
    ] as const;

    console.log("Benchmark 1: standalone server vs bare node:http (separate processes, autocannon)");
    console.log(`  GET ${path}  (${recorded.body.byteLength} bytes, HTTP Basic)`);
    console.log(
      `  ${connections} connections, warm-up ${warmup} s each, then ${rounds} rounds x ${segmentSeconds} s per target, alternating`,
    );

    let bad = 0;
    for (const t of targets) bad += (await autocannon(t.url, warmup, connections)).bad;
    // ABBA order: a slow drift on the machine lands on both targets about equally.
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) {
        const segment = await autocannon(t.url, segmentSeconds, connections);
        t.segments.push(segment);
        console.log(
          `    round ${round + 1} ${t.name.padEnd(15)} ${fmt(segment.requests / segment.seconds).padStart(8)} req/s  p50 ${segment.p50} ms  p99 ${segment.p99} ms${segment.bad ? `  BAD ${segment.bad}` : ""}`,
        );
      }
    }

    const [a, b] = targets.map((t) => summarize(t.segments)) as [
      ReturnType<typeof summarize>,
      ReturnType<typeof summarize>,
    ];
    bad += a.bad + b.bad;
    const ratio = a.rps / b.rps;
    for (const [t, s] of [
      [targets[0], a],
      [targets[1], b],
    ] as const) {
      console.log(
        `  ${t.name.padEnd(15)} ${fmt(s.rps).padStart(8)} req/s  p50 ${s.p50.toFixed(1)} ms  p99 ${s.p99} ms`,
      );
    }
    console.log(`  ratio ours/bare ${ratio.toFixed(2)}  (target >= ${target})  ${verdict(ratio, target)}`);
    console.log(`  per-round ratios ${pairedRatios(targets[0].segments, targets[1].segments)}`);
    if (bad > 0) console.log(`  FAILED: ${bad} non-2xx responses, errors or timeouts`);
    console.log("");
    return { name: "server vs bare node:http", ours: a.rps, baseline: b.rps, ratio, target, failed: bad > 0 };
  } finally {
    // SIGTERM lets the CLI shut down cleanly, which is also when --cpu-prof writes its profile.
    for (const child of children) if (!exited(child)) child.kill("SIGTERM");
    await Promise.all(
      children.map((child) =>
        exited(child) ? undefined : new Promise((resolve) => child.once("exit", resolve)),
      ),
    );
  }
}

// Also runnable alone (`tsx bench/server-vs-bare.ts`), e.g. with BENCH_CPU_PROF=<dir> to profile the server.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchServer();
  process.exitCode = result.failed ? 1 : 0;
}
