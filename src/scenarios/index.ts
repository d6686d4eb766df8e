// Scenarios: what the scenarios room offers (loading, playing, reporting, the JSON Schema).
export type { ReporterName } from "./cli-run.js";
export { loadScenario, type ScenarioSource } from "./input.js";
export { scenarioJsonSchema } from "./json-schema.js";
export type { GateResult } from "./load/gates.js";
export { LoadMergeError, type LoadMergeInput, mergeLoadResults } from "./load/merge.js";
export { formatLoadResult, formatLoadTable, loadJsonReport, loadJunitReport } from "./load/report.js";
export type { LoadMergeData } from "./load/result.js";
export {
  type LoadMetrics,
  type LoadOptions,
  type LoadProgress,
  type LoadResult,
  LoadUsageError,
  runLoad,
} from "./load/run.js";
export type { LoadSpread } from "./load/samples.js";
export { type LoadShard, type LoadShardInfo, parseLoadShard } from "./load/shard.js";
export {
  type LoadedScenario,
  loadScenarioFile,
  parseScenario,
  ScenarioLoadError,
  scenarioFromObject,
} from "./load.js";
export { jsonReport } from "./reporters/json.js";
export { junitReport } from "./reporters/junit.js";
export { formatResult, formatSummary } from "./reporters/pretty.js";
export type { RunSummary, ScenarioFailure, ScenarioResult, ScenarioStatus, TraceEntry } from "./result.js";
export { exitCodeOf, expandScenarioFiles, type RunFilesOptions, runScenarioFiles } from "./run-files.js";
export type { RunScenarioOptions } from "./runner.js";
export { type Scenario, type ScenarioInput, scenarioSchema } from "./schema.js";
