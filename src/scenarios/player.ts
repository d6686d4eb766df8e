// The scenario player as a sandbox loads it, on the first scenario it plays: the format, the loader, the runner.
export { loadScenario, parseScenarioText } from "./input.js";
export { ScenarioLoadError } from "./load.js";
export { playScenario } from "./runner.js";
