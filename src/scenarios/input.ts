// Turns what a caller hands over (a file path, YAML text, an object, a loaded scenario) into a loaded scenario.
import {
  type LoadedScenario,
  loadScenarioFile,
  parseRequestScenario,
  parseScenario,
  scenarioFromObject,
} from "./load.js";
import type { ScenarioInput } from "./schema.js";

/** A scenario file path, YAML text (anything with a line break), a scenario object, or one already loaded. */
export type ScenarioSource = string | ScenarioInput | LoadedScenario;

const isLoaded = (value: object): value is LoadedScenario =>
  "scenario" in value && "positionOf" in value && typeof (value as LoadedScenario).positionOf === "function";

/** Loads a scenario; throws ScenarioLoadError (file, line, column, reason) when it does not validate. */
export function loadScenario(source: ScenarioSource, label?: string): LoadedScenario {
  if (typeof source === "string") {
    return source.includes("\n") ? parseScenario(source, label ?? "<scenario>") : loadScenarioFile(source);
  }
  if (isLoaded(source)) return source;
  return scenarioFromObject(source, label ?? "<inline>");
}

/**
 * Scenario YAML from a request body: never a path, and it may name no file (fixtures inline or `default`);
 * its `snapshot: true` gives the timeline in the result and touches no file.
 */
export function parseScenarioText(text: string, label = "<request body>"): LoadedScenario {
  return parseRequestScenario(text, label);
}
