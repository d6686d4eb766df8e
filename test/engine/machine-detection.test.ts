// Answering machine detection through both doors with the twilio client: results by party, sync and async, errors.
import twilio from "twilio";
import { beforeEach, describe, expect, it } from "vitest";
import type { ReceivedWebhook } from "../../src/webhooks/in-process-receivers.js";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

const app = "https://app.example.com";
const customer = "+15558675310";

describe.each(doorNames)("answering machine detection via %s", (door) => {
  const ctx = useDoor(door);
  let received: ReceivedWebhook[];
  beforeEach(() => {
    received = [];
    ctx.sandbox.webhooks.register(`${app}/`, (request) => {
      received.push(request);
      if (request.url.startsWith(`${app}/voice`)) return "<Response><Say>Hello</Say></Response>";
      // Long enough for an asynchronous detection to answer while the markup runs.
      if (request.url.startsWith(`${app}/wait`)) return '<Response><Pause length="15"/></Response>';
      return "";
    });
  });
  const to = (path: string) => received.filter((r) => r.url.split("?")[0] === `${app}${path}`);
  const run = async () => {
    await ctx.sandbox.clock.runUntilIdle();
    await ctx.sandbox.settle();
  };
  const place = (extra: Record<string, unknown>) =>
    ctx
      .twilioClient()
      .calls.create({ to: customer, from: fixtures.acme.mainNumber, url: `${app}/voice`, ...extra });
  const signed = (request: ReceivedWebhook) =>
    twilio.validateRequest(
      fixtures.acme.authToken,
      request.headers["x-twilio-signature"] ?? "",
      request.url,
      request.method === "POST" ? request.params : {},
    );

  it.each([
    ["a person (the default party)", {}, "Enable", "human", 2200],
    ["a machine's long greeting", { kind: "machine" }, "Enable", "machine_start", 2400],
    ["a person who speaks long", { greeting: "3s" }, "Enable", "machine_start", 2400],
    ["a machine with a short greeting", { kind: "machine", greeting: "1500ms" }, "Enable", "human", 2700],
    ["silence", { greeting: 0 }, "Enable", "unknown", 5000],
    ["a fax", { kind: "fax" }, "Enable", "fax", 2000],
    ["a person, waiting for a message end", {}, "DetectMessageEnd", "human", 2200],
    [
      "a machine that beeps",
      { kind: "machine", greeting: "8s" },
      "DetectMessageEnd",
      "machine_end_beep",
      8500,
    ],
    [
      "a machine without a beep",
      { kind: "machine", greeting: "8s", beep: false },
      "DetectMessageEnd",
      "machine_end_silence",
      9200,
    ],
    [
      "a greeting past the timeout",
      { kind: "machine", greeting: "45s" },
      "DetectMessageEnd",
      "machine_end_other",
      30_000,
    ],
    ["a fax, waiting for a message end", { kind: "fax" }, "DetectMessageEnd", "fax", 2000],
  ] as const)(
    "%s: %s answers %s after %d ms, before the markup runs",
    async (_name, party, mode, answeredBy, ms) => {
      ctx.sandbox.calls.setParty(customer, party);
      const call = await place({ machineDetection: mode });
      await run();

      const [fetch] = to("/voice");
      expect(fetch!.params).toMatchObject({
        CallSid: call.sid,
        CallStatus: "in-progress",
        AnsweredBy: answeredBy,
        MachineDetectionDuration: String(ms),
      });
      expect(signed(fetch!)).toBe(true);
      // The markup ran only once detection answered, that long after the call was answered (virtual time).
      const timeline = ctx.sandbox.calls.timeline(call.sid);
      const answeredAt = timeline.find((e) => e.kind === "status" && e.detail.status === "in-progress")!.at;
      const fetchedAt = timeline.find((e) => e.kind === "markup.request")!.at;
      expect(fetchedAt - answeredAt).toBe(ms);
      const fetched = await ctx.twilioClient().calls(call.sid).fetch();
      expect(fetched.answeredBy).toBe(answeredBy);
    },
  );

  it("the tuning parameters move the decision: a shorter timeout and thresholds", async () => {
    ctx.sandbox.calls.setParty(customer, { kind: "machine", greeting: "8s" });
    const call = await place({
      machineDetection: "DetectMessageEnd",
      machineDetectionTimeout: 5,
      machineDetectionSpeechThreshold: 1000,
    });
    await run();
    expect(to("/voice")[0]!.params).toMatchObject({
      AnsweredBy: "machine_end_other",
      MachineDetectionDuration: "5000",
    });

    ctx.sandbox.calls.setParty(customer, { greeting: "2s" });
    const human = await place({
      machineDetection: "Enable",
      machineDetectionSpeechThreshold: 3000,
      machineDetectionSpeechEndThreshold: 500,
    });
    await run();
    expect((await ctx.twilioClient().calls(human.sid).fetch()).answeredBy).toBe("human");
    expect(ctx.sandbox.store.calls.get(human.sid)!.machine_detection_duration).toBe(2500);
    expect((await ctx.twilioClient().calls(call.sid).fetch()).answeredBy).toBe("machine_end_other");
  });

  it("AsyncAmd runs the markup at once and posts the result, signed, to AsyncAmdStatusCallback", async () => {
    ctx.sandbox.calls.setParty(customer, { kind: "machine", greeting: "8s" });
    const call = await place({
      url: `${app}/wait`,
      machineDetection: "DetectMessageEnd",
      asyncAmd: "true",
      asyncAmdStatusCallback: `${app}/amd`,
    });
    await run();

    const [fetch] = to("/wait");
    expect(fetch!.params.AnsweredBy).toBeUndefined();
    const [result] = to("/amd");
    expect(result!.method).toBe("POST");
    expect(result!.params).toEqual({
      AccountSid: fixtures.acme.sid,
      AnsweredBy: "machine_end_beep",
      CallSid: call.sid,
      MachineDetectionDuration: "8500",
    });
    expect(signed(result!)).toBe(true);
    const timeline = ctx.sandbox.calls.timeline(call.sid);
    const answeredAt = timeline.find((e) => e.kind === "status" && e.detail.status === "in-progress")!.at;
    expect(timeline.find((e) => e.kind === "markup.request")!.at).toBe(answeredAt);
    expect(timeline.find((e) => e.kind === "amd.result")!.at).toBe(answeredAt + 8500);
    expect((await ctx.twilioClient().calls(call.sid).fetch()).answeredBy).toBe("machine_end_beep");
    expect(ctx.sandbox.webhooks.deliveries.some((d) => d.kind === "amd-status")).toBe(true);
  });

  it("AsyncAmdStatusCallbackMethod=GET sends the result as a query", async () => {
    await place({
      url: `${app}/wait`,
      machineDetection: "Enable",
      asyncAmd: "true",
      asyncAmdStatusCallback: `${app}/amd`,
      asyncAmdStatusCallbackMethod: "GET",
    });
    await run();
    const [result] = to("/amd");
    expect(result!.method).toBe("GET");
    expect(result!.params.AnsweredBy).toBe("human");
    expect(signed(result!)).toBe(true);
  });

  it("AsyncAmd without a callback warns 21262 and keeps the result on the call", async () => {
    const call = await place({ url: `${app}/wait`, machineDetection: "Enable", asyncAmd: "true" });
    await run();
    expect(ctx.sandbox.calls.alerts(call.sid).map((a) => [a.code, a.level])).toEqual([[21262, "warning"]]);
    expect((await ctx.twilioClient().calls(call.sid).fetch()).answeredBy).toBe("human");
    expect(to("/amd")).toHaveLength(0);
  });

  it("an AsyncAmd call whose markup hangs up before the result sends none", async () => {
    ctx.sandbox.calls.setParty(customer, { kind: "machine" });
    const call = await place({
      machineDetection: "Enable",
      asyncAmd: "true",
      asyncAmdStatusCallback: `${app}/amd`,
    });
    await run();
    expect(to("/voice")).toHaveLength(1);
    expect(to("/amd")).toHaveLength(0);
    expect((await ctx.twilioClient().calls(call.sid).fetch()).answeredBy).toBeNull();
  });

  it("<Dial><Number machineDetection> bridges at once and posts the leg's result to amdStatusCallback", async () => {
    const agent = "+15551230009";
    ctx.sandbox.calls.setParty(agent, { kind: "machine", greeting: "6s", hangupAfter: "20s" });
    const call = await place({
      url: undefined,
      twiml:
        '<Response><Dial><Number machineDetection="DetectMessageEnd" amdStatusCallback="https://app.example.com/amd">' +
        `${agent}</Number></Dial></Response>`,
    });
    await run();

    const [leg] = ctx.sandbox.store.calls.where("parent", call.sid);
    const [result] = to("/amd");
    expect(result!.params).toEqual({
      AccountSid: fixtures.acme.sid,
      AnsweredBy: "machine_end_beep",
      CallSid: leg!.sid,
      MachineDetectionDuration: "6500",
    });
    expect(signed(result!)).toBe(true);
    expect((await ctx.twilioClient().calls(leg!.sid).fetch()).answeredBy).toBe("machine_end_beep");
    const timeline = ctx.sandbox.calls.timeline(call.sid).map((e) => e.kind);
    expect(timeline).toContain("dial.bridged");
  });

  it("<Dial><Sip machineDetection> does the same, with amdStatusCallbackMethod=GET", async () => {
    const call = await place({
      url: undefined,
      twiml:
        '<Response><Dial><Sip machineDetection="Enable" amdStatusCallback="https://app.example.com/amd" ' +
        'amdStatusCallbackMethod="GET">sip:frontdesk@pbx.example.com</Sip></Dial></Response>',
    });
    await run();
    const [leg] = ctx.sandbox.store.calls.where("parent", call.sid);
    const [result] = to("/amd");
    expect(result!.method).toBe("GET");
    expect(result!.params).toMatchObject({
      CallSid: leg!.sid,
      AnsweredBy: "human",
      MachineDetectionDuration: "2200",
    });
    expect(signed(result!)).toBe(true);
  });

  it("<Number machineDetection> with a value Twilio does not know is a markup error (12200)", async () => {
    const call = await place({
      url: undefined,
      twiml: '<Response><Dial><Number machineDetection="Always">+15551230009</Number></Dial></Response>',
    });
    await run();
    expect(ctx.sandbox.calls.alerts(call.sid).map((a) => a.code)).toContain(12200);
    expect(ctx.sandbox.store.calls.where("parent", call.sid)).toHaveLength(0);
  });

  it("a conference participant joins at once; its result goes to AmdStatusCallback", async () => {
    ctx.sandbox.calls.setParty(customer, {
      kind: "machine",
      greeting: "4s",
      beep: false,
      hangupAfter: "30s",
    });
    const added = await ctx
      .twilioClient()
      .conferences("Standup")
      .participants.create({
        from: fixtures.acme.mainNumber,
        to: customer,
        machineDetection: "DetectMessageEnd",
        amdStatusCallback: `${app}/amd`,
      });
    await run();
    const [result] = to("/amd");
    expect(result!.params).toEqual({
      AccountSid: fixtures.acme.sid,
      AnsweredBy: "machine_end_silence",
      CallSid: added.callSid,
      MachineDetectionDuration: "5200",
    });
    expect(signed(result!)).toBe(true);
    expect((await ctx.twilioClient().calls(added.callSid).fetch()).answeredBy).toBe("machine_end_silence");
    const timeline = ctx.sandbox.calls.timeline(added.callSid);
    const joinedAt = timeline.find((e) => e.kind.startsWith("conference."))!.at;
    expect(joinedAt).toBeLessThan(timeline.find((e) => e.kind === "amd.result")!.at);
  });

  it("a participant's bad MachineDetectionSpeechThreshold is refused with 21234", async () => {
    const error = await ctx
      .twilioClient()
      .conferences("Standup")
      .participants.create({
        from: fixtures.acme.mainNumber,
        to: customer,
        machineDetection: "Enable",
        machineDetectionSpeechThreshold: 7000,
      })
      .catch((e: { status: number; code: number }) => e);
    expect(error).toMatchObject({ status: 400, code: 21234 });
    expect(ctx.sandbox.store.calls.size).toBe(0);
  });

  it("SendDigits wins over MachineDetection, and a call without it has no answeredBy", async () => {
    const withDigits = await place({ machineDetection: "Enable", sendDigits: "1234" });
    const plain = await place({});
    await run();
    expect((await ctx.twilioClient().calls(withDigits.sid).fetch()).answeredBy).toBeNull();
    expect((await ctx.twilioClient().calls(plain.sid).fetch()).answeredBy).toBeNull();
    expect(to("/voice").every((r) => r.params.AnsweredBy === undefined)).toBe(true);
  });

  it("a party that hangs up during detection ends the call before any markup", async () => {
    ctx.sandbox.calls.setParty(customer, { kind: "machine", hangupAfter: "1s" });
    const call = await place({ machineDetection: "Enable" });
    await run();
    expect(to("/voice")).toHaveLength(0);
    const fetched = await ctx.twilioClient().calls(call.sid).fetch();
    expect(fetched.status).toBe("completed");
    expect(fetched.answeredBy).toBeNull();
  });

  it.each([
    [
      "MachineDetection",
      { machineDetection: "Maybe" },
      /MachineDetection: must be Enable or DetectMessageEnd/,
    ],
    [
      "MachineDetectionTimeout",
      { machineDetection: "Enable", machineDetectionTimeout: 2 },
      /between 3 and 59/,
    ],
    [
      "MachineDetectionTimeout",
      { machineDetection: "Enable", machineDetectionTimeout: 60 },
      /between 3 and 59/,
    ],
    ["MachineDetectionTimeout", { machineDetectionTimeout: "soon" }, /between 3 and 59/],
    ["MachineDetectionSpeechThreshold", { machineDetectionSpeechThreshold: 999 }, /between 1000 and 6000/],
    [
      "MachineDetectionSpeechEndThreshold",
      { machineDetectionSpeechEndThreshold: 5001 },
      /between 500 and 5000/,
    ],
    ["MachineDetectionSilenceTimeout", { machineDetectionSilenceTimeout: 1999 }, /between 2000 and 10000/],
  ])("a bad %s is refused with 21234 and nothing is created", async (_param, extra, message) => {
    const before = ctx.sandbox.store.calls.size;
    const error = await place(extra).catch((e: { status: number; code: number; message: string }) => e);
    expect(error).toMatchObject({ status: 400, code: 21234 });
    expect((error as { message: string }).message).toMatch(message);
    expect(ctx.sandbox.store.calls.size).toBe(before);
  });

  it.each([
    ["AsyncAmdStatusCallback", { asyncAmdStatusCallback: "nope" }, 21609],
    ["AsyncAmdStatusCallbackMethod", { asyncAmdStatusCallbackMethod: "PUT" }, 21209],
    ["AsyncAmd", { asyncAmd: "maybe" }, 21200],
  ])("a bad %s is refused with %s", async (_param, extra, code) => {
    const error = await place({ machineDetection: "Enable", ...extra }).catch((e: { code: number }) => e);
    expect(error).toMatchObject({ status: 400, code });
  });
});
