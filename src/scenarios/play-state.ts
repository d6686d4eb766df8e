// What playing one scenario holds: the sandbox and its helpers, the callers' scripts, waiting hang-ups, failures.
import type { ApiClient } from "./api-client.js";
import type { CallerScript, PartyMark } from "./caller-script.js";
import type { CheckContext } from "./expectations/context.js";
import type { HandlerHost } from "./handler-host.js";
import type { LoadedScenario } from "./load.js";
import type { Observer } from "./observe.js";
import type { PlayedSandbox } from "./played-sandbox.js";
import { actionOf } from "./references.js";
import type { ScenarioFailure } from "./result.js";
import type { Step } from "./schema/steps.js";
import type { World } from "./world.js";

/** A hang-up of call `callId` waiting for the caller's step it follows (`after`) to show in the timeline. */
export interface Watch {
  callId: string;
  stepIndex: number;
  after: PartyMark;
  delayMs: number;
}

export interface PlayState {
  readonly loaded: LoadedScenario;
  readonly core: PlayedSandbox;
  readonly api: ApiClient;
  readonly host: HandlerHost;
  readonly world: World;
  readonly observer: Observer;
  /** Clock time the scenario started at. */
  readonly origin: number;
  /** Clock time the scenario's `timeout` runs out at. */
  readonly limit: number;
  readonly check: CheckContext;
  readonly failures: ScenarioFailure[];
  /** Each inbound call's caller script, by call id. */
  readonly scripts: Map<string, CallerScript>;
  readonly watches: Watch[];
}

/** A located failure for a step. */
export function stepFailure(
  loaded: LoadedScenario,
  index: number,
  step: Step,
  message: string,
): ScenarioFailure {
  const path = ["steps", index, actionOf(step)];
  const position = loaded.positionOf(path);
  return {
    where: position ? `${position.file}:${position.line}:${position.column}` : null,
    path: path.join("."),
    message: step.name ? `step "${step.name}": ${message}` : message,
  };
}
