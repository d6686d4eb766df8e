// Loader error messages: every problem names the file, line, column, the value's path and what is wrong.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenario, loadScenarioFile, parseScenario, ScenarioLoadError } from "../../src/index.js";

/** The loader's message for `yaml`, or a test failure when it loads. */
function problemsOf(yaml: string, file = "s.yaml"): string {
  try {
    parseScenario(yaml, file);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioLoadError);
    return (error as Error).message;
  }
  throw new Error("the scenario loaded, but it should not have");
}

const header = `name: t
numbers:
  - { number: "+14155550100", voice: "<Response><Say>Hi</Say></Response>" }
`;

describe("scenario loader", () => {
  it("loads a valid scenario with defaults filled in", () => {
    const { scenario } = parseScenario(
      `${header}steps:\n  - call: { id: c1, from: "+14155550123", to: "+14155550100" }\n  - wait: 1m30s\n`,
    );
    expect(scenario.steps[1]!.wait).toBe(90_000);
    expect(scenario.handlers).toEqual({});
    expect(scenario.agents).toEqual([]);
  });

  it("bad YAML: the syntax error with its line and column", () => {
    expect(problemsOf('name: t\nsteps:\n  - call: { id: c1, from: "+1415\n', "broken.yaml")).toMatch(
      /^broken\.yaml:\d+:\d+: /,
    );
    expect(problemsOf("name: t\nname: again\n", "dup.yaml")).toMatch(
      /^dup\.yaml:2:1: .*[Mm]ap keys must be unique/,
    );
  });

  it("unknown keys: named, at their place, top level and inside a step", () => {
    expect(problemsOf(`${header}colour: blue\n`)).toContain(
      's.yaml:4:9: (top level): Unrecognized key: "colour"',
    );
    const message = problemsOf(
      `${header}steps:\n  - call: { id: c1, from: "+14155550123", to: "+14155550100", form: x }\n`,
    );
    expect(message).toContain('s.yaml:5:69: steps.0.call: Unrecognized key: "form"');
  });

  it("timing keys written inside the action are refused where they are", () => {
    const message = problemsOf(
      `${header}steps:\n  - call: { id: c1, from: "+14155550123", to: "+14155550100" }\n  - speak: { call: c1, text: hi, after: 2s }\n`,
    );
    expect(message).toContain('s.yaml:6:41: steps.1.speak: Unrecognized key: "after"');
  });

  it("bad durations: say which forms work", () => {
    const message = problemsOf(`${header}steps:\n  - wait: 6 seconds\n`);
    expect(message).toContain("s.yaml:5:11: steps.0.wait:");
    expect(message).toContain('"6 seconds" is not a duration: write it like 250ms, 30s, 1m30s, 2h or 1d');
    expect(problemsOf(`${header}timeout: -5\n`)).toContain("timeout: duration must be a non-negative number");
  });

  it("a said pattern that is no regular expression is refused where it is written", () => {
    const steps = (said: string) =>
      `${header}steps:\n  - call: { id: c1, from: "+14155550123", to: "+14155550100" }\n  - speak: { call: c1, text: hi }\n    on: { agent: { said: ${said} } }\n`;
    expect(problemsOf(steps('{ pattern: "account (number" }'))).toMatch(
      /s\.yaml:7:\d+: steps\.1\.on\.agent\.said\.pattern: said\.pattern is not a valid regular expression: .*Unterminated group/,
    );
    expect(problemsOf(steps('{ pattern: "a", flags: gi }'))).toContain(
      "steps.1.on.agent.said.flags: said.flags are i, m, s and u, each at most once",
    );
    expect(problemsOf(steps('{ regex: "a" }'))).toContain("steps.1.on");
    expect(
      parseScenario(steps('{ pattern: "account (number|id)", flags: i }')).scenario.steps[1]!.on,
    ).toEqual({
      agent: { said: { pattern: "account (number|id)", flags: "i" } },
    });
  });

  it("an unquoted phone number (YAML reads a number) gets a hint", () => {
    const message = problemsOf(`name: t\nnumbers:\n  - number: +14155550100\n`);
    expect(message).toContain("s.yaml:3:13: numbers.0.number: must be an E.164 number in quotes");
  });

  it("a step with no action, or two", () => {
    expect(problemsOf(`${header}steps:\n  - at: 5s\n`)).toContain(
      "s.yaml:5:5: steps.0: a step needs one action: call, place_call",
    );
    expect(
      problemsOf(
        `${header}steps:\n  - call: { id: c1, from: "+14155550123", to: "+14155550100" }\n    wait: 1s\n`,
      ),
    ).toContain("steps.0: a step does one thing; this one has call and wait");
  });

  it("bad references: unknown calls, calls used before they start, placed calls given caller steps", () => {
    const unknown = problemsOf(`${header}steps:\n  - speak: { call: c9, text: hi }\n`);
    expect(unknown).toContain(
      's.yaml:5:20: steps.0.speak.call: unknown call "c9": start it with a call step first',
    );
    const early = problemsOf(
      `${header}steps:\n  - press: { call: c1, digits: "1" }\n  - call: { id: c1, from: "+14155550123", to: "+14155550100" }\n`,
    );
    expect(early).toContain('steps.0.press.call: call "c1" starts in a later step; move this step after it');
    const placed = problemsOf(
      `${header}handlers: { /o: "<Response/>" }\nsteps:\n  - place_call: { id: o1, from: "+14155550100", to: "+15551230001", url: /o }\n  - hangup: { call: o1 }\n`,
    );
    expect(placed).toContain('steps.1.hangup.call: "o1" is a placed call: caller steps script inbound calls');
    const expectation = problemsOf(`${header}expect:\n  calls:\n    ghost: { status: completed }\n`);
    expect(expectation).toContain('s.yaml:6:12: expect.calls.ghost: unknown call "ghost"');
    const duplicate = problemsOf(
      `${header}steps:\n  - call: { id: c1, from: "+14155550123", to: "+14155550100" }\n  - call: { id: c1, from: "+14155550124", to: "+14155550100" }\n`,
    );
    expect(duplicate).toContain('steps.1.call.id: call id "c1" is already used by an earlier step');
  });

  it("bad references: agents, ring group members, handlers and fixture files", () => {
    const agents = problemsOf(
      `${header}agents: [{ name: Ann, extension: "101" }]\nring_groups: [{ name: g, members: [Ann, Zed] }]\nsteps:\n  - agent: { agent: "102", status: busy }\n`,
    );
    expect(agents).toContain('s.yaml:5:41: ring_groups.0.members.1: no agent "Zed"');
    expect(agents).toContain('steps.0.agent.agent: no agent "102": list it under agents');
    const handler = problemsOf(`name: t\nnumbers:\n  - { number: "+14155550100", voice_url: /menu }\n`);
    expect(handler).toContain(
      "s.yaml:3:42: numbers.0.voice_url: no handler for /menu: add it under handlers, or set needs_target: true",
    );
    expect(() =>
      parseScenario(
        `name: t\nneeds_target: true\nnumbers:\n  - { number: "+14155550100", voice_url: /menu }\n`,
      ),
    ).not.toThrow();
    expect(problemsOf(`${header}fixtures: ./nowhere.yaml\n`)).toMatch(
      /s\.yaml:4:11: fixtures: no fixture file at .*nowhere\.yaml/,
    );
  });

  it("scripted transcriptions: failed ones carry no text, and text or segments, not both", () => {
    expect(problemsOf(`${header}transcriptions: { outcome: failed, text: hi }\n`)).toContain(
      "s.yaml:4:17: transcriptions: a failed transcription has no text or segments",
    );
    expect(
      problemsOf(
        `${header}transcriptions:\n  - { text: a, segments: [{ speaker: x, text: a, start_time: 0, end_time: 1 }] }\n`,
      ),
    ).toContain("transcriptions.0: give text or segments, not both");
    expect(problemsOf(`${header}transcriptions: [{ calls: [nobody], text: a }]\n`)).toContain(
      'transcriptions.0.calls.0: unknown call "nobody"',
    );
  });

  it("api paths may name only calls of earlier steps", () => {
    expect(problemsOf(`${header}steps:\n  - api: { method: GET, path: "/Calls/{c7}.json" }\n`)).toContain(
      "s.yaml:5:31: steps.0.api.path: {c7} is not a call id of an earlier step, a party's name or an agent, {conferences.<name>}, {queues.<name>} or {account}",
    );
  });

  it("steps play in order: an at earlier than the step before is refused", () => {
    const message = problemsOf(
      `${header}steps:\n  - at: 1m\n    call: { id: c1, from: "+14155550123", to: "+14155550100" }\n  - at: 30s\n    call: { id: c2, from: "+14155550124", to: "+14155550100" }\n`,
    );
    expect(message).toContain(
      "s.yaml:7:9: steps.1.at: steps play in order: at 30s is before the previous step (at 60s)",
    );
  });

  it("a step after the scenario's timeout is refused", () => {
    expect(problemsOf(`${header}timeout: 1m\nsteps:\n  - wait: 2m\n`)).toContain(
      "s.yaml:6:11: steps.0.wait: this step would happen at 120s, after the scenario's timeout (60s): raise timeout",
    );
  });

  it("reports every problem at once, one line each", () => {
    const message = problemsOf(
      `${header}colour: blue\nsteps:\n  - wait: soon\n  - speak: { call: x, text: hi }\n`,
    );
    expect(message.split("\n")).toHaveLength(2);
    // The reference check runs only on a file whose shape is valid.
    expect(message).toContain("colour");
    expect(message).toContain("steps.0.wait");
  });

  it("a scenario object has no lines: errors name its label and path", () => {
    expect(() => loadScenario({ name: "o", steps: [{ wait: "x" }] } as never)).toThrow(
      /^<inline>: steps\.0\.wait: "x" is not a duration/,
    );
  });

  it("a missing file is a load error naming it", async () => {
    expect(() => loadScenarioFile("/nonexistent/s.yaml")).toThrow(
      "/nonexistent/s.yaml: cannot read the scenario file (ENOENT)",
    );
  });

  it("resolves a relative fixtures path against the scenario's directory", async () => {
    const dir = await mkdtemp(join(tmpdir(), "scenario-"));
    await writeFile(join(dir, "world.yaml"), "carrier: { api_key: carrier_key_for_this_test_0001 }\n");
    await writeFile(join(dir, "s.yaml"), "name: empty world\nfixtures: world.yaml\n");
    expect(loadScenarioFile(join(dir, "s.yaml")).scenario.fixtures).toBe("world.yaml");
  });
});
