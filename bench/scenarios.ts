// Benchmark 4: wall time to play every example scenario (each in a fresh sandbox on the virtual clock); target under 1 s.
import { join } from "node:path";
import { startCustomerApp } from "../examples/customer-app/app.mjs";
import type * as Index from "../src/index.js";
import { authToken, distUrl, envNumber, median, repoRoot } from "./lib.js";

/** The whole set should play in under a second of wall time. */
const targetMs = 1000;

export interface ScenarioBenchResult {
  name: string;
  medianMs: number;
  scenarios: number;
  simulatedMs: number;
  ok: boolean;
}

export async function benchScenarios(): Promise<ScenarioBenchResult> {
  const { runScenarioFiles } = (await import(distUrl("index.js"))) as typeof Index;
  const app = await startCustomerApp({ authToken });
  const rounds = envNumber("BENCH_SCENARIO_ROUNDS", 5);
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof runScenarioFiles>> | undefined;
  try {
    // One warm-up round: the first run pays for module loading and JIT, which a CI run pays once.
    for (let round = 0; round <= rounds; round++) {
      last = await runScenarioFiles([join(repoRoot, "scenarios/*.yaml")], { target: app.url });
      if (round > 0) times.push(last.wallMs);
    }
  } finally {
    await app.close();
  }
  const summary = last!;
  const played = summary.results.filter((r) => r.status !== "skipped");
  const simulatedMs = played.reduce((sum, r) => sum + r.simulatedMs, 0);
  const medianMs = median(times);
  const ok = summary.failed === 0 && summary.errors === 0 && summary.loadErrors.length === 0;
  console.log("Scenarios: every example in scenarios/, played one after the other");
  console.log(
    `  ${played.length} played (${summary.skipped} skipped), ${(simulatedMs / 1000).toFixed(1)} s of scenario time`,
  );
  console.log(
    `  wall time for the whole set: median ${medianMs.toFixed(0)} ms over ${rounds} rounds (target < ${targetMs} ms) ${medianMs < targetMs ? "OK" : "SLOWER THAN TARGET"}`,
  );
  if (!ok) console.log("  FAILED: not every scenario passed");
  console.log("");
  return { name: "scenarios (whole set)", medianMs, scenarios: played.length, simulatedMs, ok };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchScenarios();
  process.exitCode = result.ok ? 0 : 1;
}
