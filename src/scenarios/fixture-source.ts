// Where a scenario's world comes from: the packaged fixtures, fixtures written inline, or (from a file or a
// program, never from a request body) a fixture file; checked when the scenario loads.
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { FixtureInput } from "../fixtures/schema.js";
import { defaultFixturesPath } from "../package-files.js";
import type { Scenario } from "./schema.js";

/**
 * Where a loaded scenario came from: a file (its snapshot is kept beside it), text or an object a program
 * handed over, or a request body, which names no file at all: the server reads none for it.
 */
export type ScenarioOrigin = "file" | "program" | "request";

/**
 * What the runner builds the scenario's sandbox from: a file path, fixtures as data, `false` for none, or
 * undefined for the runner's own.
 */
export type ScenarioFixtures = string | FixtureInput | false | undefined;

interface FixtureProblem {
  path: (string | number)[];
  message: string;
}

const inlineHint = "give the fixtures inline (fixtures: { carrier: { api_key: ... }, accounts: [...] })";

/**
 * The scenario's `fixtures`, checked: `empty` (no account to act as) is refused, and so is a file named in a
 * request body. `fixtures` is the one field of the format that names a file; a snapshot is kept beside the
 * scenario's own file, never named.
 */
export function fixtureProblems(scenario: Scenario, dir: string, origin: ScenarioOrigin): FixtureProblem[] {
  const fixtures = scenario.fixtures;
  if (fixtures === undefined || fixtures === "default" || typeof fixtures !== "string") return [];
  if (fixtures === "empty")
    return [
      {
        path: ["fixtures"],
        message: `empty leaves no account for the scenario to act as: use default, or ${inlineHint}`,
      },
    ];
  if (origin === "request")
    return [
      {
        path: ["fixtures"],
        message: `a scenario sent over HTTP cannot name a file (the server reads none for it): ${inlineHint}, or use default`,
      },
    ];
  const path = isAbsolute(fixtures) ? fixtures : resolve(dir, fixtures);
  if (existsSync(path)) return [];
  return [
    {
      path: ["fixtures"],
      message: `no fixture file at ${path} (give default, a path relative to the scenario, or the fixtures inline)`,
    },
  ];
}

/**
 * The fixtures the scenario's sandbox is built from. A loaded scenario's were checked by fixtureProblems;
 * a path that still comes with a request body's scenario throws rather than being read.
 */
export function scenarioFixtures(scenario: Scenario, dir: string, origin: ScenarioOrigin): ScenarioFixtures {
  const fixtures = scenario.fixtures;
  if (fixtures === undefined || typeof fixtures !== "string") return fixtures;
  // The packaged fixtures: createSandboxCore knows this path and reads the build's parsed copy.
  if (fixtures === "default") return defaultFixturesPath;
  if (fixtures === "empty") return false;
  if (origin === "request") throw new Error(`fixtures: a scenario sent over HTTP cannot name a file`);
  return isAbsolute(fixtures) ? fixtures : resolve(dir, fixtures);
}
