// `npm run bench`: every benchmark, one after the other, each printing its own two figures and their ratio.
// `npm run bench -- soak` runs only the 15-minute soak (bench/soak.ts) instead, `npm run bench -- retention` only the
// memory past the bound on records (bench/retention.ts), `npm run bench -- load` only the load run's overhead (bench/load-run.ts)
// and the most concurrent agent calls it holds with frames on time (bench/load-capacity.ts).
import { type BenchResult, fmt, runInChild, verdict } from "./lib.js";
import { benchLoadCapacity, type LoadCapacityResult } from "./load-capacity.js";
import { benchLoadRun, type LoadRunBenchResult } from "./load-run.js";
import { benchRetention, type RetentionResult } from "./retention.js";
import { benchScale, type ScaleResult } from "./scale.js";
import { benchScenarios, type ScenarioBenchResult } from "./scenarios.js";
import { benchServer } from "./server-vs-bare.js";
import { benchSoak } from "./soak.js";
import { benchSpeech, type SpeechBenchResult } from "./speech.js";
import { benchStartup, type StartupResult } from "./startup.js";
import { benchStreams, type StreamsBenchResult } from "./streams.js";
import { benchSustainedPost, type SustainedResult } from "./sustained-post.js";
import { benchWebhooks } from "./webhook-delivery.js";

/** The MSW benchmark measures in-process, so it gets a fresh process of its own rather than this one. */
const runMswBenchmark = () => runInChild<BenchResult>("bench/msw-door.ts");

if (process.argv.includes("soak")) {
  const soak = await benchSoak();
  process.exit(soak.ok ? 0 : 1);
}

const retentionLine = (r: RetentionResult) =>
  `  ${r.name.padEnd(26)} heap ${r.heapAfterMb.toFixed(1)} MB after ${fmt(r.beyond)} messages past --retain ${fmt(r.bound)} against ${r.heapAtBoundMb.toFixed(1)} MB at it: ratio ${r.heapRatio.toFixed(2)} (<= 1.1), RSS ratio ${r.rssRatio.toFixed(2)} (<= 1.2) ${r.ok ? "PASS" : "GROWS"}`;

if (process.argv.includes("retention")) {
  const retention = await benchRetention();
  console.log(`Summary (${new Date().toISOString()}, node ${process.version})`);
  console.log(retentionLine(retention));
  process.exit(0);
}

const loadRunLine = (r: LoadRunBenchResult) =>
  `  ${r.name.padEnd(26)} ${r.calls} calls, ${r.concurrency} at once: ${r.callsPerSecond} calls/s against ${r.idealCallsPerSecond} the scenario allows, ratio ${r.ratio.toFixed(2)}; ${r.metricsPerCall} figures kept per call ${r.failed ? "FAILED" : "OK"}`;

const capacityLine = (r: LoadCapacityResult) =>
  `  ${r.name.padEnd(26)} ${r.held === null ? "no level" : `${r.held} calls at once`} with late frames under ${r.lateLimit * 100}% (${r.levels.map((l) => `${l.concurrency}: ${(l.lateShare * 100).toFixed(2)}% late, p99 ${l.lateness.p99Ms?.toFixed(1) ?? "-"} ms`).join("; ")})`;

if (process.argv.includes("load")) {
  const load = await benchLoadRun();
  const capacity = await benchLoadCapacity();
  console.log(`Summary (${new Date().toISOString()}, node ${process.version})`);
  console.log(loadRunLine(load));
  console.log(capacityLine(capacity));
  process.exit(load.failed ? 1 : 0);
}

if (process.argv.includes("streams")) {
  // Section 8 alone: the streams ceiling for both sides (`npm run bench -- streams`).
  await benchStreams();
  process.exit(0);
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

let sustained: SustainedResult | undefined;
try {
  sustained = await benchSustainedPost();
} catch (error) {
  crashed = true;
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
}

let startup: StartupResult | undefined;
try {
  startup = await benchStartup();
} catch (error) {
  crashed = true;
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
}

let scale: ScaleResult | undefined;
try {
  scale = await benchScale();
} catch (error) {
  crashed = true;
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
}

let scenarios: ScenarioBenchResult | undefined;
try {
  scenarios = await benchScenarios();
} catch (error) {
  crashed = true;
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
}

let streams: StreamsBenchResult | undefined;
try {
  streams = await benchStreams();
} catch (error) {
  crashed = true;
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
}

let retention: RetentionResult | undefined;
try {
  retention = await benchRetention();
} catch (error) {
  crashed = true;
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
}

let speech: SpeechBenchResult | undefined;
try {
  speech = await benchSpeech();
} catch (error) {
  crashed = true;
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
}

let loadRun: LoadRunBenchResult | undefined;
let capacity: LoadCapacityResult | undefined;
try {
  loadRun = await benchLoadRun();
  capacity = await benchLoadCapacity();
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
if (sustained)
  console.log(
    `  ${sustained.name.padEnd(26)} ours ${fmt(sustained.ours).padStart(8)} req/s  baseline ${fmt(sustained.baseline).padStart(8)} req/s  ratio ${sustained.ratio.toFixed(2)} (>= ${sustained.target}) ${verdict(sustained.ratio, sustained.target)}; last/first 10 s ${sustained.runs.map((run) => `${run.drift.toFixed(2)} (${run.label})`).join(", ")}; heap kept per message ${sustained.runs.map((run) => `${fmt(run.heapPerMessage.kept)} B`).join(", ")} (<= ${sustained.heapTarget}); a whole message in-process ${sustained.floor.throughCoreUs.toFixed(1)} us against the ${sustained.floor.requestUs.toFixed(1)} us a request has at the target (its store writes ${sustained.floor.withEventsUs.toFixed(1)} us against the ${sustained.floor.budgetUs.toFixed(1)} us beyond the bare server's)`,
  );
if (startup)
  console.log(
    `  ${startup.name.padEnd(26)} library ${startup.libraryMs.toFixed(0)} ms vs msw/node ${startup.mswMs.toFixed(0)} ms (ratio ${startup.libraryRatio.toFixed(2)}); serve ${startup.coldStartMs.toFixed(0)} ms vs bare ${startup.bareStartMs.toFixed(0)} ms (ratio ${startup.coldRatio.toFixed(2)}, target <= 2; first start ${startup.firstStartMs.toFixed(0)} ms, ${startup.firstStartRatio.toFixed(2)})`,
  );
if (scale) {
  const largest = scale.sizes[scale.sizes.length - 1]!;
  console.log(
    `  ${"scale".padEnd(26)} at ${largest.size}: ${largest.rssPerRecord.toFixed(0)} B/record, restart ${(largest.restartMs / 1000).toFixed(1)} s, pages ${largest.carrierPageMs.toFixed(1)}/${largest.accountPageMs.toFixed(1)} ms; flatness lookup ${scale.flatness.lookup.toFixed(2)}, pages ${scale.flatness.carrierPage.toFixed(2)}/${scale.flatness.accountPage.toFixed(2)} ${scale.ok ? "OK" : "OUTSIDE TARGETS"}`,
  );
}
if (streams)
  console.log(
    `  ${streams.name.padEnd(26)} ours ${streams.ours} streams  baseline ${streams.baseline} streams  ratio ${streams.ratio.toFixed(2)} (>= ${streams.target}) ${verdict(streams.ratio, streams.target)}; every caller speaking: ${streams.speaking}`,
  );
if (retention) console.log(retentionLine(retention));
if (speech)
  console.log(
    `  ${speech.name.padEnd(26)} load ${speech.loadMs.toFixed(0)} ms; ${speech.coldMsPerSecond.toFixed(1)} ms per second of speech cold, ${speech.cachedMsPerSecond.toFixed(3)} cached; 60 s WAV ${speech.wavColdMs.toFixed(0)}/${speech.wavCachedMs.toFixed(0)} ms cold/cached, MP3 ${speech.mp3Ms.toFixed(0)} ms`,
  );
if (loadRun) console.log(loadRunLine(loadRun));
if (capacity) console.log(capacityLine(capacity));
// A ratio under target is reported, not fatal: on a noisy 2-core machine it can be the machine's doing.
process.exitCode =
  crashed || results.some((r) => r.failed) || sustained?.failed || scenarios?.ok === false || loadRun?.failed
    ? 1
    : 0;
