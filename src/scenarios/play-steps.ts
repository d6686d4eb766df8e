// Plays a scenario's world steps in time order, each at its time, honouring expect_error, then plays on to the end.
import { StepRefused } from "./api-client.js";
import { mismatches } from "./expectations/match.js";
import { advanceTo, drain } from "./play-clock.js";
import { type PlayState, stepFailure } from "./play-state.js";
import { worldStepTimes } from "./references.js";
import type { Step } from "./schema/steps.js";
import { performWorldStep } from "./world-steps.js";

/** Runs one world step, honouring expect_error; false when the scenario cannot go on. */
async function runWorldStep(state: PlayState, index: number, step: Step): Promise<boolean> {
  const expected = step.expect_error;
  try {
    await performWorldStep(state, index, step);
  } catch (error) {
    if (!(error instanceof StepRefused) || !expected) {
      state.failures.push(stepFailure(state.loaded, index, step, (error as Error).message));
      return false;
    }
    const differences = mismatches(
      {
        ...(expected.status !== undefined ? { status: expected.status } : {}),
        ...(expected.code !== undefined ? { code: expected.code } : {}),
      },
      { status: error.status, code: error.code },
    );
    if (differences.length > 0 || (expected.message && !error.message.includes(expected.message)))
      state.failures.push({
        ...stepFailure(state.loaded, index, step, `refused differently than expected: ${error.message}`),
        expected,
        actual: { status: error.status, code: error.code, message: error.message },
      });
    return true;
  }
  if (expected)
    state.failures.push({
      ...stepFailure(state.loaded, index, step, "was expected to be refused, but it succeeded"),
      expected,
    });
  return true;
}

/** Plays every world step, then on until nothing is left to happen; false when a step stopped the scenario. */
export async function playSteps(state: PlayState): Promise<boolean> {
  const scenario = state.loaded.scenario;
  const times = worldStepTimes(scenario);
  for (const [index, step] of scenario.steps.entries()) {
    const time = times.get(index);
    if (time === undefined) continue; // a caller step: in its call's script
    await advanceTo(state, state.origin + time);
    if (!(await runWorldStep(state, index, step))) return false;
  }
  await drain(state);
  return true;
}
