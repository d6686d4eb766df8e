// Loads scenarios from YAML files (or plain objects): zod-validated, cross-checked, every error located.
import { dirname, resolve } from "node:path";
import type { z } from "zod";
import { FileReadError, readBoundedText } from "../fixtures/bounded-read.js";
import {
  dottedPath,
  readYaml,
  SourceError,
  type SourcePosition,
  type SourceProblem,
  type YamlSource,
} from "../fixtures/yaml-source.js";
import { fixtureProblems, type ScenarioOrigin } from "./fixture-source.js";
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
  /** A file, a program's text or object, or a request body (which names no file: fixtures inline only). */
  origin: ScenarioOrigin;
}

function located(
  scenario: Scenario,
  file: string,
  dir: string,
  positionOf: LoadedScenario["positionOf"],
  origin: ScenarioOrigin,
): LoadedScenario {
  const found = [...checkReferences(scenario), ...checkInlineMarkup(scenario)];
  found.push(...fixtureProblems(scenario, dir, origin));
  const problems = found.map((p) => ({
    position: positionOf(p.path) ?? { file, line: 0, column: 0 },
    path: dottedPath(p.path),
    message: p.message,
  }));
  if (problems.length > 0) throw new ScenarioLoadError(problems);
  return { scenario, file, dir, positionOf, origin };
}

type Issue = z.core.$ZodIssue;

/**
 * The issues to report: a union that failed without a message of its own (fixtures: a name or the fixtures
 * inline) reports the issues of the one alternative the value was of the type of, each at its own path.
 */
function reportedIssues(issues: readonly Issue[]): Issue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== "invalid_union" || issue.message !== "Invalid input") return [issue];
    const typed = issue.errors.filter(
      (option) => !option.every((i) => i.code === "invalid_type" && i.path.length === 0),
    );
    if (typed.length !== 1) return [issue];
    return reportedIssues(typed[0]!.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue));
  });
}

/** A zod issue's path; an unknown key points at the key's own value, where the typo is written. */
const issuePath = (issue: Issue): PropertyKey[] =>
  issue.code === "unrecognized_keys" && issue.keys.length === 1
    ? [...issue.path, issue.keys[0]!]
    : issue.path;

/** Parses scenario YAML; `file` names it in errors and anchors relative paths (fixture files). */
export function parseScenario(text: string, file = "<scenario>", dir = process.cwd()): LoadedScenario {
  return parseScenarioFrom(text, file, dir, "program");
}

/** Scenario YAML a request carried: it may name no file (`fixtures` inline or `default` only). */
export function parseRequestScenario(text: string, label = "<request body>"): LoadedScenario {
  return parseScenarioFrom(text, label, process.cwd(), "request");
}

function parseScenarioFrom(text: string, file: string, dir: string, origin: ScenarioOrigin): LoadedScenario {
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
      reportedIssues(result.error.issues).map((issue) => {
        const path = issuePath(issue);
        return { position: source.positionOf(path), path: dottedPath(issue.path), message: issue.message };
      }),
    );
  return located(result.data, file, dir, (path) => source.positionOf(path), origin);
}

export function loadScenarioFile(path: string): LoadedScenario {
  let text: string;
  try {
    text = readBoundedText(path);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    throw new ScenarioLoadError([
      {
        position: { file: path, line: 0, column: 0 },
        path: "",
        message: `cannot read the scenario file (${error.reason})`,
      },
    ]);
  }
  return parseScenarioFrom(text, path, dirname(resolve(path)), "file");
}

/** A scenario given as a plain object (already parsed YAML or JSON). */
export function scenarioFromObject(value: unknown, label = "<inline>", dir = process.cwd()): LoadedScenario {
  const result = scenarioSchema.safeParse(value);
  if (!result.success) {
    throw new ScenarioLoadError(
      reportedIssues(result.error.issues).map((issue) => ({
        position: { file: label, line: 0, column: 0 },
        path: dottedPath(issue.path),
        message: issue.message,
      })),
    );
  }
  return located(result.data, label, dir, () => null, "program");
}
