// The scenario format's `present`, `absent` and `{ sid_of: name }`, named legs (a party's name, an agent) in
// `calls` and `heard`, and the `{conferences.x}`, `{queues.x}`, `{name}` and `{calls.x}` placeholders.
import { describe, expect, it } from "vitest";
import { parseScenario, ScenarioLoadError } from "../../src/index.js";
import { expectVerdict, onlyFailure } from "./play.js";

function problemsOf(yaml: string): string {
  try {
    parseScenario(yaml, "s.yaml");
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioLoadError);
    return (error as Error).message;
  }
  throw new Error("the scenario loaded, but it should not have");
}

// <Sip>: "Once the SIP session completes, Twilio requests the <Dial> action URL, passing along the SIP CallID
// header, the response code of the invite attempt, ... as well as the standard Twilio <Dial> parameters".
const sipThenNumber = (expect: string) => `
name: sip
numbers:
  - number: "+14155550100"
    voice: <Response><Dial action="/after-sip"><Sip>sip:desk@pbx.example.com</Sip></Dial></Response>
handlers:
  /after-sip: <Response><Dial action="/after-number"><Number url="/whisper" sendDigits="1">+14155550199</Number></Dial></Response>
  /whisper: <Response><Say>Whisper for the callee</Say></Response>
  /after-number: <Response><Hangup/></Response>
parties:
  "sip:desk@pbx.example.com": { name: desk, sipResponseCode: 404 }
  "+14155550199": { name: callee, hangupAfter: 5s }
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
${expect}`;

describe("present, absent and sid_of", () => {
  it("the SIP action has DialSipCallId and the SIP leg as DialCallSid; a <Number>'s action has neither SIP parameter", async () => {
    await expectVerdict(
      sipThenNumber(`  requests:
    - url: /after-sip
      params: { DialCallStatus: failed, DialSipResponseCode: "404", DialSipCallId: present, DialCallSid: { sid_of: desk } }
    - url: /after-number
      params: { DialCallSid: { sid_of: callee }, DialSipCallId: absent, DialSipResponseCode: absent }
  calls:
    desk: { status: failed, parent_call_sid: { sid_of: c1 } }
`),
      "passed",
    );
  });

  it("absent fails on a parameter that was sent, naming it and its value", async () => {
    const failure = await onlyFailure(
      sipThenNumber(`  requests:
    - { url: /after-sip, params: { DialCallStatus: failed, DialSipCallId: absent } }
`),
    );
    expect(failure.message).toMatch(
      /DialSipCallId is "[0-9a-f]{32}@sip\.voice-sandbox\.test", expected "absent"/,
    );
    expect(failure.where).toBe("<scenario>:16:7");
  });

  it("present fails on a parameter that was not sent", async () => {
    const failure = await onlyFailure(
      sipThenNumber(`  requests:
    - { url: /after-number, params: { DialCallStatus: completed, DialSipCallId: present } }
`),
    );
    expect(failure.message).toContain('DialSipCallId is missing, expected "present"');
  });

  it("sid_of another leg than the one sent fails, showing the name and the sid it stands for", async () => {
    const failure = await onlyFailure(
      sipThenNumber(`  requests:
    - { url: /after-number, params: { DialCallStatus: completed, DialCallSid: { sid_of: desk } } }
`),
    );
    expect(failure.message).toMatch(
      /DialCallSid is "CA[0-9a-f]{32}", expected \{"sid_of":"desk","sid":"CA[0-9a-f]{32}"\}/,
    );
  });

  it("typed fields of a record take present and absent too; another word gets the field's own message", async () => {
    await expectVerdict(
      sipThenNumber(`  calls:
    c1: { duration: present, price: present, answered_by: absent }
    desk: { duration: present, answered_by: absent }
`),
      "passed",
    );
    expect(problemsOf(sipThenNumber("  calls:\n    c1: { status: done }\n").slice(1))).toContain(
      'expect.calls.c1.status: Invalid option: expected one of "queued"|"ringing"|"in-progress"|"completed"|"busy"|"no-answer"|"failed"|"canceled" (or present, absent)',
    );
  });

  it("a leg that was never dialled stands for no sid: the entry fails", async () => {
    const yaml = sipThenNumber(`  requests:
    - { url: /after-sip, params: { DialCallSid: { sid_of: other } } }
`).replace(
      '"+14155550199": { name: callee, hangupAfter: 5s }',
      '"+14155550199": { name: callee, hangupAfter: 5s }\n  "+14155550177": { name: other }',
    );
    const failure = await onlyFailure(yaml);
    expect(failure.message).toContain('expected {"sid_of":"other","sid":null}');
  });
});

describe("heard and calls for a dialled leg", () => {
  // <Number url>: "You can use this TwiML to privately <Play> or <Say> information to the called party";
  // sendDigits "tells Twilio to play DTMF tones when the call is answered" (<Number> page).
  it("the callee's leg heard its whisper and the sendDigits tones, the caller heard neither", async () => {
    await expectVerdict(
      sipThenNumber(`  heard:
    callee: { exactly: [{ digits: "1" }, { say: Whisper for the callee }] }
  never:
    heard: { c1: [{ say: Whisper for the callee }, { digits: "1" }] }
  calls:
    callee: { status: completed, direction: outbound-dial }
  requests:
    - { url: /whisper, call: callee, params: { CallSid: { sid_of: callee }, ParentCallSid: { sid_of: c1 } } }
`),
      "passed",
    );
  });

  it("what the leg did not hear fails under its name", async () => {
    const failure = await onlyFailure(
      sipThenNumber(`  heard:
    callee: [{ say: Something else }]
`),
    );
    expect(failure.path).toBe("expect.heard.callee.0");
    expect(failure.message).toContain('call callee did not hear {"say":"Something else"}');
  });

  it("an agent's name stands for the first leg dialled to its extension", async () => {
    await expectVerdict(
      `
name: agent leg
numbers:
  - number: "+14155550100"
    voice: <Response><Dial><Client>201</Client></Dial></Response>
agents:
  - { name: Bob, extension: "201" }
parties:
  "201": { hangupAfter: 5s }
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
  calls:
    Bob: { status: completed, to: "201", parent_call_sid: { sid_of: c1 } }
`,
      "passed",
    );
  });
});

describe("load errors for names", () => {
  const head = `name: t
numbers:
  - { number: "+14155550100", voice: "<Response><Say>Hi</Say></Response>" }
parties:
  "+14155550199": { name: callee }
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
`;

  it("sid_of a name the scenario does not have", () => {
    expect(
      problemsOf(`${head}expect:\n  requests:\n    - { params: { DialCallSid: { sid_of: calee } } }\n`),
    ).toContain(
      's.yaml:10:42: expect.requests.0.params.DialCallSid.sid_of: sid_of: unknown name "calee": use a call id, a party\'s name, an agent, conferences.<name> or queues.<name>',
    );
  });

  it("a sid_of that is not a name, and a sid_of with other keys", () => {
    expect(problemsOf(`${head}expect:\n  calls:\n    c1: { parent_call_sid: { sid_of: 5 } }\n`)).toContain(
      "s.yaml:10:28: expect.calls.c1.parent_call_sid: write a sid reference as { sid_of: name }",
    );
    expect(
      problemsOf(`${head}expect:\n  calls:\n    c1: { parent_call_sid: { sid_of: callee, id: 2 } }\n`),
    ).toContain("s.yaml:10:28: expect.calls.c1.parent_call_sid: write a sid reference as { sid_of: name }");
  });

  it("heard and calls under a name that is no call, party or agent", () => {
    expect(problemsOf(`${head}expect:\n  heard:\n    nobody: [{ say: Hi }]\n`)).toContain(
      's.yaml:10:13: expect.heard.nobody: unknown call "nobody": no call or place_call step names it, nor is it a party\'s name or an agent',
    );
  });

  it("a party's name that a call id already uses", () => {
    expect(problemsOf(head.replace("name: callee", "name: c1"))).toContain(
      's.yaml:5:27: parties.+14155550199.name: "c1" is already a call id: give the party a name of its own',
    );
  });

  it("{calls.x} in inline markup naming no call or leg is an error at its line", () => {
    expect(
      problemsOf(
        head.replace(
          '"<Response><Say>Hi</Say></Response>"',
          '"<Response><Dial><Conference coach=\\"{calls.agent}\\">room</Conference></Dial></Response>"',
        ),
      ),
    ).toContain('s.yaml:3:38: numbers.0.voice: {calls.agent}: no call or leg is named "agent"');
  });
});

describe("{calls.x} in inline markup", () => {
  const coaching = (agentAt: string, expect: string) => `
name: coach
numbers:
  - number: "+14155550100"
    voice: <Response><Dial><Conference statusCallback="/conference" statusCallbackEvent="join">room</Conference></Dial></Response>
parties:
  "+14155550150": { hangupAfter: 30s }
  "+14155550160": { hangupAfter: 30s }
steps:
  - call: { id: customer, from: "+14155550123", to: "+14155550100" }
  - at: ${agentAt}
    place_call: { id: agent, from: "+14155550100", to: "+14155550150", twiml: "<Response><Dial><Conference>room</Conference></Dial></Response>" }
  - at: 10s
    place_call:
      id: supervisor
      from: "+14155550100"
      to: "+14155550160"
      twiml: <Response><Dial><Conference coach="{calls.agent}">room</Conference></Dial></Response>
  - at: 40s
    hangup: { call: customer }
expect:
${expect}`;

  // Participants: "call_sid_to_coach: The SID of the participant who is being coached."
  it("is the call's sid when the markup is served: the coach's join names the agent it coaches", async () => {
    await expectVerdict(
      coaching(
        "2s",
        `  webhooks:
    - { url: /conference, params: { CallSid: { sid_of: supervisor }, Coaching: "true", CallSidToCoach: { sid_of: agent } } }
`,
      ),
      "passed",
    );
    const failure = await onlyFailure(
      coaching(
        "2s",
        `  webhooks:
    - { url: /conference, params: { CallSid: { sid_of: supervisor }, CallSidToCoach: { sid_of: customer } } }
`,
      ),
    );
    expect(failure.message).toContain('expected {"sid_of":"customer","sid":"CA');
  });

  // 13240: "Twilio requires coach to reference a call that is currently connected to an in-progress conference".
  it("is left as written while the call has no sid: the coach names no call of the room (13240)", async () => {
    const yaml = coaching("2s", "  alerts: [{ code: 13240, call: supervisor }]\n")
      .replace("{calls.agent}", "{calls.backup}")
      .replace(
        '"+14155550160": { hangupAfter: 30s }',
        '"+14155550160": { hangupAfter: 30s }\n  "+14155550170": { name: backup }',
      );
    await expectVerdict(yaml, "passed");
  });
});

describe("placeholders in api paths", () => {
  it("{callee} in a path is the named leg's sid: the app hangs the dialled leg up", async () => {
    await expectVerdict(
      `
name: hang up the leg
numbers:
  - number: "+14155550100"
    voice: <Response><Dial action="/after"><Number>+14155550199</Number></Dial></Response>
handlers:
  /after: <Response><Say>The call ended</Say></Response>
parties:
  "+14155550199": { name: callee, hangupAfter: 1m }
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - at: 10s
    api: { method: POST, path: "/Calls/{callee}.json", form: { Status: completed } }
expect:
  calls:
    callee: { status: completed, duration: 7 }
  requests:
    - { url: /after, params: { DialCallStatus: completed, DialCallDuration: "7", DialCallSid: { sid_of: callee } } }
`,
      "passed",
    );
  });

  it("{conferences.x} with no such conference stops the step, saying so", async () => {
    const result = await expectVerdict(
      `
name: no room
numbers:
  - { number: "+14155550100", voice: "<Response><Say>Hi</Say></Response>" }
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - api: { method: POST, path: "/Conferences/{conferences.sales}/Participants/{c1}.json", form: { Muted: true } }
`,
      "failed",
    );
    expect(result.failures[0]!.message).toBe(
      '{conferences.sales} stands for no sid yet: the account has no conference named "sales" when this step ran; time the step later (at, after, wait)',
    );
  });

  // Queue members: "Url: The absolute URL of the Queue resource" is where the dequeued caller goes; the inline
  // handlers live on https://app.scenario.test.
  it("{queues.x} is the queue's sid", async () => {
    await expectVerdict(
      `
name: queue
numbers:
  - { number: "+14155550100", voice: "<Response><Enqueue>support</Enqueue></Response>" }
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - at: 5s
    api: { method: POST, path: "/Queues/{queues.support}/Members/Front.json", form: { Url: "https://app.scenario.test/dequeued" } }
handlers:
  /dequeued: <Response><Say>Your turn</Say></Response>
expect:
  heard: { c1: [{ say: Your turn }] }
`,
      "passed",
    );
  });
});
