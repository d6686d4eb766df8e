// Each kind of expectation: one that holds, and one that does not with the failure it reports.
import { describe, expect, it } from "vitest";
import { expectVerdict, onlyFailure } from "./play.js";

/** A call that records a voicemail (transcribed), with status callbacks, billed to Acme. */
const base = (expectations: string) => `
name: expectations
numbers:
  - number: "+14155550100"
    status_callback: /status
    voice: |
      <Response>
        <Say>Leave a message</Say>
        <Play>https://cdn.example.com/beep.mp3</Play>
        <Record transcribe="true" transcribeCallback="/transcribed" action="/recorded" timeout="3"/>
      </Response>
handlers:
  /recorded: <Response><Say>Thanks</Say></Response>
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
  - speak: { call: c1, text: "Hello it is Bob", for: 2s }
expect:
${expectations}`;

describe("scenario expectations", () => {
  it("calls: partial match on the record; a mismatch shows expected, actual and the call's timeline", async () => {
    await expectVerdict(
      base('  calls: { c1: { status: completed, direction: inbound, to: "+14155550100" } }'),
      "passed",
    );
    const failure = await onlyFailure(base('  calls: { c1: { status: busy, to: "+14155550100" } }'));
    expect(failure).toMatchObject({
      path: "expect.calls.c1.status",
      where: "<scenario>:17:26",
      message: 'call c1: status is "completed", expected "busy"',
      expected: { status: "busy", to: "+14155550100" },
      actual: { status: "completed", to: "+14155550100" },
    });
    expect(failure.call?.id).toBe("c1");
    expect(failure.call?.timeline[0]).toBe('+0.000s  call.created {"direction":"inbound"}');
    expect(
      failure.call?.timeline.some((l) => l.includes('status {"event":"hangup","status":"completed"}')),
    ).toBe(true);
  });

  it("recordings and transcriptions: ordered partial lists, with segments element by element", async () => {
    await expectVerdict(
      base(`  recordings: [{ call: c1, source: RecordVerb, channels: 1 }]
  transcriptions:
    - { call: c1, status: completed, text: Hello it is Bob, segments: [{ speaker: SPEAKER_00, text: Hello it is Bob, start_time: 0, end_time: 2 }] }`),
      "passed",
    );
    const failure = await onlyFailure(
      base("  transcriptions: [{ call: c1, segments: [{ speaker: agent, text: Hello it is Bob }] }]"),
    );
    expect(failure.path).toBe("expect.transcriptions.0");
    expect(failure.message).toMatch(/^transcriptions\[0\] not found: 1 candidate, none matches/);
    expect(failure.actual).toEqual([
      {
        segments: [{ speaker: "SPEAKER_00", text: "Hello it is Bob" }],
        call_sid: expect.stringMatching(/^CA/),
      },
    ]);
  });

  it("webhooks: callbacks in the order sent; the same entries out of order fail", async () => {
    const inOrder = `  webhooks:
    - { url: /status, params: { CallStatus: completed } }
    - { url: /transcribed, kind: transcription, params: { TranscriptionText: Hello it is Bob } }`;
    await expectVerdict(base(inOrder), "passed");
    const reversed = `  webhooks:
    - { url: /transcribed }
    - { url: /status }`;
    const failure = await onlyFailure(base(reversed));
    expect(failure.path).toBe("expect.webhooks.1");
    expect(failure.message).toMatch(
      /^webhooks\[1\] not found after the one webhooks\[0\] matched \(entry 2 of 2\): 0 candidates/,
    );
  });

  it("requests: markup fetches with their parameters and answer status", async () => {
    await expectVerdict(
      base(`  requests:
    - { url: /numbers/14155550100/voice, method: POST, kind: voice-markup, status: 200 }
    - { url: /recorded, params: { RecordingDuration: "2", Digits: hangup } }`),
      "failed",
    );
    await expectVerdict(
      base(`  requests:
    - { url: /numbers/14155550100/voice, method: POST, kind: voice-markup, status: 200 }
    - { url: /recorded, params: { RecordingDuration: "2", Digits: null } }`),
      "passed",
    );
  });

  it("heard: say, play and beep in order", async () => {
    await expectVerdict(
      base(
        '  heard: { c1: [{ say: Leave a message }, { play: "https://cdn.example.com/beep.mp3" }, { beep: true }, { say: Thanks }] }',
      ),
      "passed",
    );
    const failure = await onlyFailure(base("  heard: { c1: [{ say: Thanks }, { say: Leave a message }] }"));
    expect(failure).toMatchObject({
      path: "expect.heard.c1.1",
      message: 'call c1 did not hear {"say":"Leave a message"} after the entries before it',
    });
  });

  it("ledger, balance and events: the account's money and its event log", async () => {
    await expectVerdict(
      base(`  ledger:
    - { kind: top_up, amount_cents: 10000 }
    - { kind: charge, category: voice, call: c1 }
  events:
    - { type: phone_call.completed, call: c1 }
    - { type: transcription.completed }`),
      "passed",
    );
    const failure = await onlyFailure(base("  balance_cents: 10000"));
    expect(failure.message).toMatch(/^balance is 99\d\d cents, expected 10000$/);
  });

  it("alerts: [] means none; an alert that happened is found by code", async () => {
    await expectVerdict(base("  alerts: []"), "passed");
    const broken = `
name: broken
numbers: [{ number: "+14155550100", voice_url: /voice }]
handlers: { /voice: [{ body: "<Response><Sya>typo</Sya></Response>", content_type: text/xml }] }
steps:
  - call: { id: c1, from: "+14155550123", to: "+14155550100" }
expect:
  alerts: []
`;
    const failure = await onlyFailure(broken);
    expect(failure.message).toMatch(/^expected no alerts, found 1$/);
    expect(failure.actual).toEqual([expect.objectContaining({ code: 12200 })]);
  });

  it("messages: the account's messages, oldest first", async () => {
    const yaml = (body: string) => `
name: messages
numbers: [{ number: "+14155550100", sms: "<Response><Message>Got it</Message></Response>" }]
steps:
  - sms: { from: "+14155550123", to: "+14155550100", body: hi }
expect:
  messages: [{ direction: inbound, body: hi }, { direction: outbound-reply, body: ${body} }]
`;
    await expectVerdict(yaml("Got it"), "passed");
    expect((await onlyFailure(yaml("Nope"))).path).toBe("expect.messages.1");
  });

  it("a call that never started fails every expectation about it, by name", async () => {
    const failure = await onlyFailure(`
name: never started
account: { status: suspended }
handlers: { /o: <Response/> }
steps:
  - place_call: { id: o1, from: "+14155550100", to: "+15551230001", url: /o }
    expect_error: { status: 403 }
expect:
  calls: { o1: { status: completed } }
`);
    expect(failure).toMatchObject({ path: "expect.calls.o1", message: "call o1 never started" });
  });
});
