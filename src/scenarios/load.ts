// Loads scenarios from YAML files (or plain objects): zod-validated, cross-checked, every error located.
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import type { z } from "zod";
import {
  dottedPath,
  readYaml,
  SourceError,
  type SourcePosition,
  type SourceProblem,
  type YamlSource,
} from "../fixtures/yaml-source.js";
import { checkInlineMarkup } from "./inline-markup.js";
import { checkReferences } from "./references.js";
import { type Scenario, scenarioSchema } from "./schema.js";

/** A scenario that did not load: `problems` has file, line, column and reason for each issue. */
export class ScenarioLoadError extends SourceError {
  constructor(problems: SourceProblem[]) {
    super(problems);
    this.name = "ScenarioLoadError";
  }
}

export interface LoadedScenario {
  scenario: Scenario;
  /** The file it came from; a label such as `<inline>` for objects and request bodies. */
  file: string;
  /** Directory relative paths (fixtures) resolve against. */
  dir: string;
  /** Where a value of the scenario is written, when it came from YAML. */
  positionOf(path: readonly (string | number)[]): SourcePosition | null;
}

function located(
  scenario: Scenario,
  file: string,
  dir: string,
  positionOf: LoadedScenario["positionOf"],
): LoadedScenario {
  const problems = [...checkReferences(scenario), ...checkInlineMarkup(scenario)].map((p) => ({
    position: positionOf(p.path) ?? { file, line: 0, column: 0 },
    path: dottedPath(p.path),
    message: p.message,
  }));
  const fixtures = scenario.fixtures;
  if (fixtures !== undefined && fixtures !== "default" && fixtures !== "empty") {
    const path = isAbsolute(fixtures) ? fixtures : resolve(dir, fixtures);
    if (!existsSync(path))
      problems.push({
        position: positionOf(["fixtures"]) ?? { file, line: 0, column: 0 },
        path: "fixtures",
        message: `no fixture file at ${path} (give default, empty, or a path relative to the scenario)`,
      });
  }
  if (problems.length > 0) throw new ScenarioLoadError(problems);
  return { scenario, file, dir, positionOf };
}

/** A zod issue's path; an unknown key points at the key's own value, where the typo is written. */
const issuePath = (issue: z.core.$ZodIssue): PropertyKey[] =>
  issue.code === "unrecognized_keys" && issue.keys.length === 1
    ? [...issue.path, issue.keys[0]!]
    : issue.path;

/** Parses scenario YAML; `file` names it in errors and anchors relative paths. */
export function parseScenario(text: string, file = "<scenario>", dir = process.cwd()): LoadedScenario {
  let source: YamlSource;
  try {
    source = readYaml(text, file);
  } catch (error) {
    if (error instanceof SourceError) throw new ScenarioLoadError(error.problems);
    throw error;
  }
  const result = scenarioSchema.safeParse(source.value ?? {});
  if (!result.success)
    throw new ScenarioLoadError(
      result.error.issues.map((issue) => {
        const path = issuePath(issue);
        return { position: source.positionOf(path), path: dottedPath(issue.path), message: issue.message };
      }),
    );
  return located(result.data, file, dir, (path) => source.positionOf(path));
}

export function loadScenarioFile(path: string): LoadedScenario {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ScenarioLoadError([
      {
        position: { file: path, line: 0, column: 0 },
        path: "",
        message: `cannot read the scenario file (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      },
    ]);
  }
  return parseScenario(text, path, dirname(resolve(path)));
}

/** A scenario given as a plain object (already parsed YAML or JSON). */
export function scenarioFromObject(value: unknown, label = "<inline>", dir = process.cwd()): LoadedScenario {
  const result = scenarioSchema.safeParse(value);
  if (!result.success) {
    throw new ScenarioLoadError(
      result.error.issues.map((issue) => ({
        position: { file: label, line: 0, column: 0 },
        path: dottedPath(issue.path),
        message: issue.message,
      })),
    );
  }
  return located(result.data, label, dir, () => null);
}
