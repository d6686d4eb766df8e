// Each kind of step: what it makes the sandbox do, shown through expectations that pass and that fail.
import { describe, expect, it } from "vitest";
import { expectVerdict, onlyFailure, play, withMenu } from "./play.js";

const ring = `  - call: { id: c1, from: "+14155550123", to: "+14155550100" }`;

describe("scenario steps", () => {
  it("call rings the number: its voice_url is fetched with CallStatus=ringing and the call runs", async () => {
    const result = await expectVerdict(
      withMenu(
        `steps:\n${ring}\nexpect:\n  calls: { c1: { status: completed, direction: inbound, from: "+14155550123" } }\n  requests:\n    - { url: /menu, call: c1, params: { CallStatus: ringing, From: "+14155550123" } }\n`,
      ),
      "passed",
    );
    expect(result.calls.c1).toMatch(/^CA[0-9a-f]{32}$/);
  });

  it("press is played into the next Gather that listens", async () => {
    await expectVerdict(
      withMenu(
        `steps:\n${ring}\n  - press: { call: c1, digits: "1" }\nexpect:\n  heard: { c1: [{ say: Press 1 or say help }, { say: You pressed one }] }\n  requests: [{ url: /choice, params: { Digits: "1" } }]\n`,
      ),
      "passed",
    );
  });

  it("speak is heard by a speech Gather as SpeechResult", async () => {
    await expectVerdict(
      withMenu(
        `steps:\n${ring}\n  - speak: { call: c1, text: help, confidence: 0.8 }\nexpect:\n  requests: [{ url: /choice, params: { SpeechResult: help, Confidence: "0.80000000" } }]\n  heard: { c1: [{ say: Help is on the way }] }\n`,
      ),
      "passed",
    );
  });

  it("silence takes the Gather's turn with no input: the document falls through", async () => {
    await expectVerdict(
      withMenu(
        `steps:\n${ring}\n  - silence: { call: c1 }\n  - press: { call: c1, digits: "1" }\nexpect:\n  heard: { c1: [{ say: Nothing chosen }] }\n  requests: [{ url: /menu }]\n`,
      ),
      "passed",
    );
    // The press after the silence never reached a Gather: no /choice request was made.
    const failure = await onlyFailure(
      withMenu(
        `steps:\n${ring}\n  - silence: { call: c1 }\n  - press: { call: c1, digits: "1" }\nexpect:\n  requests: [{ url: /choice }]\n`,
      ),
    );
    expect(failure.message).toMatch(/^requests\[0\] not found/);
  });

  it("on: a step waits for the nth start of a verb", async () => {
    const yaml = `
name: second gather
numbers:
  - number: "+14155550100"
    voice: |
      <Response>
        <Gather numDigits="1" action="/first" timeout="2"><Say>First menu</Say></Gather>
        <Gather numDigits="1" action="/second" timeout="5"><Say>Second menu</Say></Gather>
      </Response>
handlers:
  /first: <Response><Say>first</Say></Response>
  /second: <Response><Say>second</Say></Response>
steps:
${ring}
  - on: { verb: Gather, nth: 2 }
    after: 500ms
    press: { call: c1, digits: "7" }
expect:
  requests: [{ url: /second, params: { Digits: "7" } }]
  heard: { c1: [{ say: First menu }, { say: Second menu }, { say: second }] }
`;
    await expectVerdict(yaml, "passed");
  });

  it("hangup right after the caller's previous step: Record ends with Digits=hangup", async () => {
    const yaml = `
name: hang up after speaking
numbers:
  - number: "+14155550100"
    voice: <Response><Record action="/done" timeout="10"/></Response>
handlers:
  /done: <Response><Say>unused</Say></Response>
steps:
${ring}
  - speak: { call: c1, text: "one two three", for: 3s }
  - hangup: { call: c1 }
expect:
  calls: { c1: { status: completed, duration: 5 } }
  requests: [{ url: /done, params: { Digits: hangup, RecordingDuration: "3" } }]
`;
    // Listening at 0s, speech 1s..4s, hang-up 1s after it ends: 5s; the recording, trimmed of silence, 3s.
    await expectVerdict(yaml, "passed");
  });

  it("hangup at a scenario time, and after a delay from the previous step", async () => {
    const yaml = (timing: string) => `
name: timed hangup
numbers:
  - number: "+14155550100"
    voice: <Response><Say>Hello</Say><Pause length="60"/></Response>
steps:
  - at: 10s
    call: { id: c1, from: "+14155550123", to: "+14155550100" }
${timing}
expect:
  calls: { c1: { status: completed, duration: 25 } }
`;
    await expectVerdict(yaml("  - at: 35s\n    hangup: { call: c1 }"), "passed");
    const failure = await onlyFailure(yaml("  - at: 20s\n    hangup: { call: c1 }"));
    expect(failure.message).toBe("call c1: duration is 10, expected 25");
  });

  it("place_call: the callee script decides; the app's Url runs once it answers", async () => {
    const yaml = `
name: outbound
handlers:
  /out: <Response><Gather numDigits="1" action="/pressed"><Say>Press a key</Say></Gather></Response>
  /pressed: <Response><Say>Thanks</Say></Response>
steps:
  - place_call:
      id: o1
      from: "+14155550100"
      to: "+15551230009"
      url: /out
      callee: { answerAfter: 4s, steps: [{ on: { verb: Gather }, after: 2s, press: "5" }] }
expect:
  calls: { o1: { status: completed, direction: outbound-api, to: "+15551230009" } }
  requests:
    - { url: /out, params: { CallStatus: in-progress } }
    - { url: /pressed, params: { Digits: "5" } }
`;
    await expectVerdict(yaml, "passed");
  });

  it("agent changes an agent's status at its time", async () => {
    const yaml = `
name: agent status
agents: [{ name: Ann, extension: "101" }]
steps:
  - at: 30s
    agent: { agent: Ann, status: dnd }
  - expect:
      events: [{ type: agent_extension.status_changed }]
`;
    await expectVerdict(yaml, "passed");
    const failure = await onlyFailure(
      yaml.replace("  - at: 30s\n    agent: { agent: Ann, status: dnd }\n", "  - wait: 30s\n"),
    );
    expect(failure.path).toBe("steps.1.expect.events.0");
  });

  it("sms delivers a text to the number; its sms_url is posted", async () => {
    const yaml = `
name: sms
numbers:
  - number: "+14155550100"
    sms_url: /sms
handlers:
  /sms: <Response/>
steps:
  - sms: { from: "+14155550123", to: "+14155550100", body: "hello there" }
expect:
  messages: [{ direction: inbound, body: hello there }]
  requests: [{ url: /sms, kind: sms-markup, params: { Body: hello there } }]
`;
    await expectVerdict(yaml, "passed");
  });

  it("api: the app hangs up and redirects calls, the carrier tops up, through the sandbox's APIs", async () => {
    const yaml = `
name: app actions
numbers:
  - number: "+14155550100"
    voice: <Response><Say>Hello</Say><Pause length="60"/></Response>
steps:
${ring}
  - at: 5s
    api: { method: POST, path: "/Calls/{c1}.json", form: { Twiml: "<Response><Say>Moved</Say><Pause length=\\"60\\"/></Response>" } }
  - at: 20s
    api: { method: POST, path: "/Calls/{c1}.json", form: { Status: completed } }
  - api:
      method: POST
      path: "/carrier/v1/accounts/{account}/balances/top_up"
      json: { category: scenario, amount_cents: 250 }
  - api: { method: GET, path: /Calls/CA00000000000000000000000000000000.json }
    expect_error: { status: 404, code: 20404 }
expect:
  calls: { c1: { status: completed, duration: 20 } }
  heard: { c1: [{ say: Moved }] }
  ledger: [{ kind: top_up, amount_cents: 250 }]
`;
    await expectVerdict(yaml, "passed");
    const refused = await onlyFailure(yaml.replace("    expect_error: { status: 404, code: 20404 }\n", ""));
    expect(refused.message).toMatch(
      /^GET \/2010-04-01\/Accounts\/AC1{32}\/Calls\/CA0{32}\.json was refused: 404 20404/,
    );
  });

  it("api: an admin write without a body passes the admin API's body-type rule", async () => {
    // The admin API takes a bodyless write only with Content-Type: application/json; the step sends it.
    const yaml = `
name: admin write without a body
numbers:
  - number: "+14155550100"
    voice: <Response><Say>Hello</Say></Response>
steps:
  - api: { method: DELETE, path: /__sandbox/faults, as: admin }
`;
    await expectVerdict(yaml, "passed");
  });

  it("expect as a step checks the state at that moment", async () => {
    const yaml = (at: string, status: string) => `
name: state over time
numbers:
  - number: "+14155550100"
    voice: <Response><Say>Hello</Say><Pause length="20"/></Response>
steps:
${ring}
  - at: ${at}
    expect:
      calls: { c1: { status: ${status} } }
`;
    await expectVerdict(yaml("10s", "in-progress"), "passed");
    await expectVerdict(yaml("30s", "completed"), "passed");
    const failure = await onlyFailure(yaml("10s", "completed"));
    expect(failure).toMatchObject({
      path: "steps.1.expect.calls.c1.status",
      where: "<scenario>:9:30",
      message: 'call c1: status is "in-progress", expected "completed"',
    });
  });

  it("expect_heard: heard before the caller's next step, else a failure that says when", async () => {
    const yaml = (timing: string) => `
name: heard in order
numbers:
  - number: "+14155550100"
    voice: |
      <Response><Say>Welcome to the line</Say><Say>Leave a message</Say><Record action="/r" timeout="3"/></Response>
handlers:
  /r: <Response/>
steps:
${ring}
  - expect_heard: { call: c1, say: Leave a message }
${timing}
`;
    await expectVerdict(yaml("  - speak: { call: c1, text: my message }"), "passed");
    const failure = await onlyFailure(yaml("  - at: 1s\n    speak: { call: c1, text: my message }"));
    expect(failure.message).toMatch(
      /^call c1 heard \{"say":"Leave a message"\} at \+\d+\.\d{3}s, after the caller's next step \(party\.say\) at \+1\.000s$/,
    );
    expect(failure.call?.timeline.some((line) => line.includes("heard.say"))).toBe(true);
  });

  it("expect_error: a refusal that matches passes; another refusal, or a success, fails", async () => {
    const yaml = (code: string) => `
name: refused
account: { status: suspended }
handlers: { /o: <Response/> }
steps:
  - place_call: { id: o1, from: "+14155550100", to: "+15551230001", url: /o }
    expect_error: { status: 403, code: ${code} }
`;
    await expectVerdict(yaml("20005"), "passed");
    const wrong = await onlyFailure(yaml("20003"));
    expect(wrong.message).toMatch(
      /^refused differently than expected: placing the call o1 to \+15551230001 was refused: 403 20005/,
    );
    const succeeded = await onlyFailure(yaml("20005").replace("account: { status: suspended }\n", ""));
    expect(succeeded).toMatchObject({
      path: "steps.0.place_call",
      message: "was expected to be refused, but it succeeded",
    });
    const named = await onlyFailure(
      yaml("20005")
        .replace("account: { status: suspended }\n", "")
        .replace("  - place_call:", "  - name: first call\n    place_call:"),
    );
    expect(named.message).toBe('step "first call": was expected to be refused, but it succeeded');
  });

  it("a refused step without expect_error fails the scenario there and plays no further", async () => {
    const result = await play(`
name: refused unexpectedly
account: { status: suspended }
numbers: [{ number: "+14155550100", voice: <Response/> }]
steps:
${ring}
  - wait: 10s
expect:
  calls: { c1: { status: completed } }
`);
    expect(result.status).toBe("failed");
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({ path: "steps.0.call", where: "<scenario>:5:11" });
    expect(result.failures[0]!.message).toMatch(
      /^the call c1 from \+14155550123 to \+14155550100 was refused: 403/,
    );
    expect(result.simulatedMs).toBe(0);
  });

  it("transcriptions: outcome failed makes the provider fail every transcription", async () => {
    const yaml = (outcome: string) => `
name: stt
transcriptions: { outcome: ${outcome} }
numbers:
  - number: "+14155550100"
    voice: <Response><Record transcribe="true" transcribeCallback="/t" timeout="2"/></Response>
steps:
${ring}
  - speak: { call: c1, text: hello world }
  - hangup: { call: c1 }
expect:
  transcriptions: [{ status: failed, text: null }]
  webhooks: [{ url: /t, params: { TranscriptionStatus: failed } }]
`;
    await expectVerdict(yaml("failed"), "passed");
    await expectVerdict(yaml("completed"), "failed");
  });

  it("transcriptions: the provider's text or segments, for every call or the listed ones", async () => {
    const yaml = (stt: string) => `
name: scripted stt
transcriptions:
${stt}
numbers:
  - number: "+14155550100"
    voice: <Response><Record transcribe="true" transcribeCallback="/t" timeout="2"/></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: what was really said }
  - hangup: { call: c1 }
  - at: 1m
    call: { id: c2, from: "+14155550124", to: "+14155550100" }
  - speak: { call: c2, text: second caller }
  - hangup: { call: c2 }
expect:
  transcriptions:
    - { call: c1, status: completed, text: "Hello from the provider", segments: [{ speaker: SPEAKER_00, text: Hello from the provider }] }
    - call: c2
      status: completed
      text: "I need help\\nSure"
      segments: [{ speaker: SPEAKER_01, text: I need help, start_time: 0, end_time: 1.5 }, { speaker: SPEAKER_00, text: Sure }]
  webhooks:
    - { url: /t, call: c1, params: { TranscriptionText: Hello from the provider } }
`;
    await expectVerdict(
      yaml(`  - { calls: [c1], text: Hello from the provider }
  - calls: [c2]
    segments:
      - { speaker: SPEAKER_01, text: I need help, start_time: 0, end_time: 1.5 }
      - { speaker: SPEAKER_00, text: Sure, start_time: 1.5, end_time: 2 }`),
      "passed",
    );
    // Without the script, the transcripts are what the callers said.
    const unscripted = await expectVerdict(yaml("  - { calls: [c2], outcome: failed }"), "failed");
    expect(unscripted.failures.map((f) => f.path)).toEqual(["expect.transcriptions.0", "expect.webhooks.0"]);
    expect(unscripted.failures[0]!.actual).toEqual([
      expect.objectContaining({ text: "what was really said" }),
      expect.objectContaining({ status: "failed", text: null }),
    ]);
  });

  it("a handler answering 500 plays the error prompt and raises an 11200 alert", async () => {
    await expectVerdict(
      `
name: broken app
numbers: [{ number: "+14155550100", voice_url: /voice }]
handlers:
  /voice: [{ status: 500, body: oops }]
steps:
${ring}
expect:
  alerts: [{ code: 11200, call: c1 }]
  requests: [{ url: /voice, status: 500 }]
`,
      "passed",
    );
  });
});
