// Test support: play scenario YAML in a fresh sandbox and show the pretty report when an expectation is off.
import { expect } from "vitest";
import { createSandboxCore, formatResult, type ScenarioResult } from "../../src/index.js";

export async function play(
  yaml: string,
  options: { target?: string; seed?: number } = {},
): Promise<ScenarioResult> {
  return createSandboxCore().runScenario(yaml.startsWith("\n") ? yaml.slice(1) : yaml, options);
}

/** Plays and asserts the verdict, printing the report on a mismatch so the failing test says why. */
export async function expectVerdict(yaml: string, status: ScenarioResult["status"]): Promise<ScenarioResult> {
  const result = await play(yaml);
  expect(result.status, formatResult(result)).toBe(status);
  return result;
}

/** The single failure of a failed scenario. */
export async function onlyFailure(yaml: string) {
  const result = await expectVerdict(yaml, "failed");
  expect(result.failures, formatResult(result)).toHaveLength(1);
  return result.failures[0]!;
}

/** Scenario text with a fixed numbers/handlers head, so tests show only what they are about. */
export const withMenu = (rest: string) => `
name: menu
numbers:
  - number: "+14155550100"
    voice_url: /menu
    status_callback: /status
handlers:
  /menu: |
    <Response>
      <Gather input="dtmf speech" numDigits="1" action="/choice" timeout="4">
        <Say>Press 1 or say help</Say>
      </Gather>
      <Say>Nothing chosen</Say>
    </Response>
  /choice:
    - when: { Digits: "1" }
      markup: <Response><Say>You pressed one</Say></Response>
    - when: { SpeechResult: help }
      markup: <Response><Say>Help is on the way</Say></Response>
    - markup: <Response><Say>Unknown choice</Say></Response>
${rest}`;
