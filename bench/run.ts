// `npm run bench`: every benchmark, one after the other, each printing its own two figures and their ratio.
// `npm run bench -- soak` runs only the 15-minute soak (bench/soak.ts) instead.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { type BenchResult, fmt, repoRoot, verdict } from "./lib.js";
import { benchScenarios, type ScenarioBenchResult } from "./scenarios.js";
import { benchServer } from "./server-vs-bare.js";
import { benchSoak } from "./soak.js";
import { benchWebhooks } from "./webhook-delivery.js";

/** The MSW benchmark measures in-process, so it gets a fresh process of its own rather than this one. */
function runMswBenchmark(): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "bench/msw-door.ts")], {
      cwd: repoRoot,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let result: BenchResult | undefined;
    child.on("message", (message) => {
      result = message as BenchResult;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (result) resolve(result);
      else reject(new Error(`the MSW benchmark exited with ${code} and no result`));
    });
  });
}

if (process.argv.includes("soak")) {
  const soak = await benchSoak();
  process.exit(soak.ok ? 0 : 1);
}

const results: BenchResult[] = [];
let crashed = false;
for (const bench of [benchServer, runMswBenchmark, benchWebhooks]) {
  try {
    results.push(await bench());
  } catch (error) {
    crashed = true;
    console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

let scenarios: ScenarioBenchResult | undefined;
try {
  scenarios = await benchScenarios();
} catch (error) {
  crashed = true;
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
}

console.log(`Summary (${new Date().toISOString()}, node ${process.version})`);
for (const r of results) {
  console.log(
    `  ${r.name.padEnd(26)} ours ${fmt(r.ours).padStart(8)} req/s  baseline ${fmt(r.baseline).padStart(8)} req/s  ratio ${r.ratio.toFixed(2)} (>= ${r.target}) ${r.failed ? "FAILED (bad responses)" : verdict(r.ratio, r.target)}`,
  );
}
if (scenarios)
  console.log(
    `  ${scenarios.name.padEnd(26)} ${scenarios.scenarios} scenarios in ${scenarios.medianMs.toFixed(0)} ms wall (target < 1000 ms) ${scenarios.ok ? (scenarios.medianMs < 1000 ? "OK" : "SLOWER THAN TARGET") : "FAILED (a scenario did not pass)"}`,
  );
// A ratio under target is reported, not fatal: on a noisy 2-core machine it can be the machine's doing.
process.exitCode = crashed || results.some((r) => r.failed) || scenarios?.ok === false ? 1 : 0;
