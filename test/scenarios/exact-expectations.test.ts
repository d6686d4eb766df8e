// Exact expectations and strictness: exactly lists, count, never, alerts that fail, and what fails to load.
import { describe, expect, it } from "vitest";
import { parseScenario, ScenarioLoadError } from "../../src/index.js";
import { expectVerdict, onlyFailure, play } from "./play.js";

/** One inbound call to a number answering with `markup`, with status callbacks. */
const oneCall = (markup: string, expectations: string, extra = "") => `
name: exact
numbers:
  - number: "+14155550100"
    status_callback: /status
    voice: '${markup}'
${extra}steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
${expectations}`;

function loadProblems(yaml: string): string {
  try {
    parseScenario(yaml.slice(1), "s.yaml");
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioLoadError);
    return (error as Error).message;
  }
  throw new Error("the scenario loaded, but it should not have");
}

describe("never", () => {
  it('an absent beep: Record playBeep="false" passes never.heard beep; the default beep fails it', async () => {
    const never = "  never: { heard: { c1: [{ beep: true }] } }";
    await expectVerdict(
      oneCall('<Response><Record playBeep="false" timeout="2"/></Response>', never),
      "passed",
    );
    const failure = await onlyFailure(oneCall('<Response><Record timeout="2"/></Response>', never));
    expect(failure).toMatchObject({
      path: "expect.never.heard.c1.0",
      where: "<scenario>:9:26",
      message: 'call c1 heard: 1 record matches {"beep":true}, expected none',
    });
    expect(failure.call?.id).toBe("c1");
  });

  it("no status callback after completed: `after` limits the search to records after its match", async () => {
    const never = `  never:
    webhooks: [{ url: /status, after: { params: { CallStatus: completed } } }]
    requests: [{ url: /elsewhere }]
    messages: [{ to: "+14155550123" }]
    calls: [{ to: "+14155550199" }]`;
    await expectVerdict(oneCall("<Response><Say>Hi</Say></Response>", never), "passed");
    const failure = await onlyFailure(
      oneCall("<Response><Say>Hi</Say></Response>", "  never: { webhooks: [{ url: /status }] }"),
    );
    expect(failure.path).toBe("expect.never.webhooks.0");
    expect(failure.actual).toEqual([{ at: "+1.000s", url: "/status" }]);
  });

  it("no message to a number: an auto-reply sent fails it", async () => {
    const failure = await onlyFailure(`
name: sms
numbers: [{ number: "+14155550100", sms: "<Response><Message>Got it</Message></Response>" }]
steps:
  - sms: { from: "+14155550123", to: "+14155550100", body: hi }
expect:
  never: { messages: [{ to: "+14155550123" }] }
`);
    expect(failure.message).toBe('never.messages: 1 record matches {"to":"+14155550123"}, expected none');
  });
});

describe("count and exactly", () => {
  const loop = (count: number) =>
    oneCall(
      '<Response><Say loop="3">Hello</Say></Response>',
      `  heard: { c1: [{ say: Hello, count: ${count} }] }`,
    );

  it("a Say that loops 3 times: count 3 passes, count 2 fails however many are in order", async () => {
    await expectVerdict(loop(3), "passed");
    const failure = await onlyFailure(loop(2));
    expect(failure).toMatchObject({
      path: "expect.heard.c1.0.count",
      message: "call c1 heard[0] matches 3 records, expected exactly 2",
    });
    const four = await onlyFailure(loop(4));
    expect(four.message).toBe('call c1 did not hear {"say":"Hello"} (match 4 of 4)');
  });

  it("exactly: every record of the kind, in order, and nothing else", async () => {
    const markup = "<Response><Say>One</Say><Say>Two</Say></Response>";
    await expectVerdict(
      oneCall(markup, "  heard: { c1: { exactly: [{ say: One }, { say: Two }] } }"),
      "passed",
    );
    const extra = await onlyFailure(oneCall(markup, "  heard: { c1: { exactly: [{ say: One }] } }"));
    expect(extra).toMatchObject({
      path: "expect.heard.c1.exactly",
      message: "call c1 heard: 1 more record than the 1 expected, starting with call c1 heard[1]",
      actual: [{ say: "Two", at: "+1.000s" }],
    });
    const order = await onlyFailure(
      oneCall(markup, "  heard: { c1: { only: [{ say: Two }, { say: One }] } }"),
    );
    expect(order.message).toBe('call c1 heard[0] does not match: say is "One", expected "Two"');
    const webhooks = `  webhooks:
    exactly:
      - { url: /status, params: { CallStatus: completed } }`;
    await expectVerdict(oneCall(markup, webhooks), "passed");
  });
});

describe("strict by default", () => {
  const brokenAtRunTime = (expectations: string, extra = "") => `
name: broken app
numbers: [{ number: "+14155550100", voice_url: /voice }]
handlers: { /voice: [{ body: "<Response><Say>Hi</Sya></Response>", content_type: text/xml }] }
${extra}steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
  calls: { c1: { status: completed } }
${expectations}`;

  it("an alert the file does not expect fails the scenario, with the call's timeline", async () => {
    const failure = await onlyFailure(brokenAtRunTime(""));
    expect(failure.path).toBe("alerts");
    expect(failure.message).toMatch(
      /^unexpected alert 12100 \(error\) at \+0\.000s on call c1: Document parse failure: .*; expect it under alerts, or list its code in allow_alerts$/,
    );
    expect(failure.call?.timeline.length).toBeGreaterThan(2);
  });

  it("an alert expected by code, or allowed by code, passes", async () => {
    await expectVerdict(brokenAtRunTime("  alerts: [{ code: 12100, call: c1 }]"), "passed");
    await expectVerdict(brokenAtRunTime("", "allow_alerts: [12100]\n"), "passed");
    expect((await play(brokenAtRunTime("", "allow_alerts: [13610]\n"))).status).toBe("failed");
  });

  it("inline markup that does not parse is a load error at its line", () => {
    expect(
      loadProblems(`
name: typo
numbers:
  - number: "+14155550100"
    voice: |
      <Response><Say>Hi</Sya></Response>
`),
    ).toMatch(/^s\.yaml:4:12: numbers\.0\.voice: markup error 12100: Document parse failure: .*line 1/);
    expect(
      loadProblems(`
name: typo
handlers:
  /menu: [{ markup: "<Response><Sya>Hi</Sya></Response>" }]
`),
    ).toContain(
      "s.yaml:3:21: handlers./menu.0.markup: markup error 12200: Schema validation warning: <Sya> is not a valid verb",
    );
  });

  it("a typo'd expectation key is a load error naming the closest field", () => {
    expect(
      loadProblems(`
name: typo
expect:
  calls: { c1: { stauts: completed } }
  webhooks: [{ url: /status, parmas: { CallStatus: completed } }]
`),
    ).toBe(
      [
        's.yaml:3:26: expect.calls.c1: unknown field "stauts" of a call (did you mean "status"?)',
        's.yaml:4:38: expect.webhooks.0: unknown field "parmas" of a request (did you mean "params"?)',
      ].join("\n"),
    );
  });
});
