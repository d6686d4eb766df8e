// Start-up: library import + createSandbox() against import("msw/node"), and the CLI's cold start to its first health answer against a bare node:http spawn; medians of fresh processes, alternated.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { envNumber, median, repoRoot } from "./lib.js";

export interface StartupResult {
  name: string;
  /** Median ms of `import("voice-sandbox")` + `createSandbox()` in a fresh process. */
  libraryMs: number;
  /** Median ms of `import("msw/node")` in a fresh process. */
  mswMs: number;
  libraryRatio: number;
  /** Median ms from spawning `voice-sandbox serve` to its first health answer, its compiled code cached. */
  coldStartMs: number;
  /** The same with an empty compile cache folder: the first start on a machine (or in a fresh container). */
  firstStartMs: number;
  /** Median ms from spawning a bare node:http server to its first answer. */
  bareStartMs: number;
  coldRatio: number;
  firstStartRatio: number;
}

/** Runs `source` as an ES module in a fresh Node process in the repository and returns what it printed. */
function runModule(source: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", source], { cwd: repoRoot });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}: ${out}`)),
    );
  });
}

const libraryTiming = `const t = performance.now();
const { createSandbox } = await import(${JSON.stringify(join(repoRoot, "dist/index.js"))});
createSandbox();
console.log(performance.now() - t);`;
const mswTiming = `const t = performance.now();
await import("msw/node");
console.log(performance.now() - t);`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Polls `url` until it answers; resolves with the milliseconds since `started`. */
function firstAnswer(url: string, started: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const deadline = started + 20_000;
    const attempt = () => {
      const req = request(url, (res) => {
        res.resume();
        res.on("end", () => resolve(performance.now() - started));
      });
      req.on("error", () => {
        if (performance.now() > deadline) reject(new Error(`no answer from ${url} in 20 s`));
        else setTimeout(attempt, 2);
      });
      req.end();
    };
    attempt();
  });
}

async function timeSpawn(
  args: (port: number) => string[],
  url: (port: number) => string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args(port), { cwd: repoRoot, stdio: "ignore", env });
  try {
    return await firstAnswer(url(port), started);
  } finally {
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

export async function benchStartup(): Promise<StartupResult> {
  const rounds = Math.round(envNumber("BENCH_STARTUP_ROUNDS", 7));
  const library: number[] = [];
  const msw: number[] = [];
  const cold: number[] = [];
  const bare: number[] = [];
  const bareServer = (port: number) =>
    `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`;
  const first: number[] = [];
  // The CLI keeps its compiled code in a cache folder (docs/configuration.md): one kept for the run, written
  // by a start before the rounds, and an empty one for each first start.
  const caches = mkdtempSync(join(tmpdir(), "voice-sandbox-bench-cache-"));
  const serveIn = (cache: string) => () =>
    timeSpawn(
      (port) => [
        join(repoRoot, "dist/server/cli.cjs"),
        "serve",
        "--port",
        String(port),
        "--log-level",
        "warn",
      ],
      (port) => `http://127.0.0.1:${port}/__sandbox/health`,
      { ...process.env, VOICE_SANDBOX_COMPILE_CACHE: cache },
    );
  const cached = serveIn(join(caches, "kept"));
  // Its first start writes the cache once it listens, before it answers (so first starts include that).
  await cached();
  for (let i = 0; i < rounds; i++) {
    // Alternated, so a busy moment of the machine weighs on both sides alike.
    library.push(Number(await runModule(libraryTiming)));
    msw.push(Number(await runModule(mswTiming)));
    cold.push(await cached());
    first.push(await serveIn(join(caches, `empty-${i}`))());
    bare.push(
      await timeSpawn(
        (port) => ["-e", bareServer(port)],
        (port) => `http://127.0.0.1:${port}/`,
      ),
    );
  }
  rmSync(caches, { recursive: true, force: true });
  const result: StartupResult = {
    name: "start-up",
    libraryMs: median(library),
    mswMs: median(msw),
    libraryRatio: median(library) / median(msw),
    coldStartMs: median(cold),
    bareStartMs: median(bare),
    coldRatio: median(cold) / median(bare),
    firstStartMs: median(first),
    firstStartRatio: median(first) / median(bare),
  };
  console.log(`Start-up, medians of ${rounds} fresh processes each`);
  console.log(
    `  library import + createSandbox() ${result.libraryMs.toFixed(0)} ms, import("msw/node") ${result.mswMs.toFixed(0)} ms: ratio ${result.libraryRatio.toFixed(2)} (target: <= 150 ms on a quiet machine)`,
  );
  console.log(
    `  serve to first health answer ${result.coldStartMs.toFixed(0)} ms, bare node:http spawn ${result.bareStartMs.toFixed(0)} ms: ratio ${result.coldRatio.toFixed(2)} (target <= 2)`,
  );
  console.log(
    `  the same with an empty compile cache (a machine's first start) ${result.firstStartMs.toFixed(0)} ms: ratio ${result.firstStartRatio.toFixed(2)}`,
  );
  console.log("");
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStartup();
