// Dial: child legs with outbound-dial direction, the action's DialCallStatus, agent extensions, ring groups, recordings.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { createAgentExtension } from "../../src/engine/accounts/agent-extensions.js";
import { createRingGroup } from "../../src/engine/accounts/ring-groups.js";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;

describe("Dial", () => {
  const h = useEngine();
  const dialDoc = (
    attrs: Record<string, unknown>,
    nouns: (dial: ReturnType<InstanceType<typeof VoiceResponse>["dial"]>) => void,
  ) => {
    const r = new VoiceResponse();
    nouns(r.dial({ action: "/dialed", ...attrs }));
    return r.toString();
  };

  it("bridges the first leg to answer and posts DialCallStatus=completed with the child's sid and duration", async () => {
    await h.routeMainNumber("/voice");
    h.door.sandbox.calls.setParty("+14155550111", { answerAfter: "4s", hangupAfter: "30s" });
    h.app.on(
      "/voice",
      dialDoc({ callerId: fixtures.acme.mainNumber }, (d) =>
        d.number({ statusCallback: "/leg" }, "+14155550111"),
      ),
    );
    h.app.on("/dialed", new VoiceResponse().toString());
    const parent = await h.ringMainNumber();
    await h.run();
    const action = h.app.received("/dialed")[0]!.params;
    expect(action).toMatchObject({
      DialCallStatus: "completed",
      DialCallDuration: "30",
      DialBridged: "true",
    });
    const child = await h.door.twilioClient().calls(action.DialCallSid!).fetch();
    expect(child).toMatchObject({
      direction: "outbound-dial",
      parentCallSid: parent,
      status: "completed",
      to: "+14155550111",
    });
    expect(h.app.received("/leg")[0]!.params).toMatchObject({
      CallStatus: "completed",
      ParentCallSid: parent,
    });
  });

  it.each([
    ["+15005550002", "busy"],
    ["+15005550003", "no-answer"],
    ["+15005550001", "failed"],
  ])("a Dial to %s posts DialCallStatus=%s and the call carries on", async (to, status) => {
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      dialDoc({ timeout: 10 }, (d) => d.number(to)),
    );
    const after = new VoiceResponse();
    after.say("Nobody took it");
    h.app.on("/dialed", after.toString());
    const parent = await h.ringMainNumber();
    await h.run();
    expect(h.app.received("/dialed")[0]!.params.DialCallStatus).toBe(status);
    expect(h.door.sandbox.calls.heard(parent).map((e) => e.text)).toEqual(["Nobody took it"]);
  });

  it("rings several numbers at once: the first to answer wins, the others are canceled", async () => {
    await h.routeMainNumber("/voice");
    h.door.sandbox.calls.setParty("+14155550111", { answerAfter: "8s", hangupAfter: "5s" });
    h.door.sandbox.calls.setParty("+14155550112", { answerAfter: "2s", hangupAfter: "5s" });
    h.app.on(
      "/voice",
      dialDoc({}, (d) => {
        d.number("+14155550111");
        d.number("+14155550112");
      }),
    );
    const parent = await h.ringMainNumber();
    await h.run();
    const children = await h.door.twilioClient().calls.list({ parentCallSid: parent });
    const byTo = Object.fromEntries(children.map((c) => [c.to, c.status]));
    expect(byTo).toEqual({ "+14155550111": "canceled", "+14155550112": "completed" });
  });

  it("dials agent extensions by status: online answers, busy is busy, and a sequential ring group moves on", async () => {
    const ctx = h.door.sandbox.engine;
    const busy = createAgentExtension(ctx, fixtures.acme.sid, {
      agent_name: "Bo",
      extension: "201",
      status: "busy",
    });
    const online = createAgentExtension(ctx, fixtures.acme.sid, { agent_name: "Al", extension: "202" });
    createRingGroup(ctx, fixtures.acme.sid, {
      name: "support",
      strategy: "sequential",
      ring_timeout: 10,
      agent_extension_sids: [busy.sid, online.sid],
    });
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      dialDoc({}, (d) => d.client("support")),
    );
    const parent = await h.ringMainNumber();
    await h.run();
    expect(h.app.received("/dialed")[0]!.params.DialCallStatus).toBe("completed");
    const children = await h.door.twilioClient().calls.list({ parentCallSid: parent });
    expect(children.map((c) => [c.to, c.status]).sort()).toEqual([
      ["201", "busy"],
      ["202", "completed"],
    ]);
  });

  it("<Client> dials the client identity it names, also when an agent has that name: client:Bo, not extension 201", async () => {
    // Twilio's <Client>: the identity is a Voice SDK client's; an agent's extension is dialled as <Number>201</Number>.
    createAgentExtension(h.door.sandbox.engine, fixtures.acme.sid, {
      agent_name: "Bo",
      extension: "201",
      status: "busy",
    });
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      dialDoc({}, (d) => d.client("Bo")),
    );
    const byName = await h.ringMainNumber();
    await h.run();
    const [leg] = await h.door.twilioClient().calls.list({ parentCallSid: byName });
    expect([leg!.to, leg!.status]).toEqual(["client:Bo", "completed"]);
    expect(h.app.received("/dialed")[0]!.params.DialCallStatus).toBe("completed");

    h.app.clear();
    h.app.on(
      "/voice",
      dialDoc({}, (d) => d.number("201")),
    );
    const byExtension = await h.ringMainNumber();
    await h.run();
    const [agentLeg] = await h.door.twilioClient().calls.list({ parentCallSid: byExtension });
    expect([agentLeg!.to, agentLeg!.status]).toEqual(["201", "busy"]);
  });

  it("record-from-answer-dual makes a two-channel DialVerb recording transcribed as agent and customer", async () => {
    await h.useSttProvider("deepgram");
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      dialDoc({ record: "record-from-answer-dual", recordingStatusCallback: "/rec" }, (d) =>
        d.number("+14155550111"),
      ),
    );
    const parent = await h.ringMainNumber();
    await h.run();
    const rec = h.app.received("/rec")[0]!.params;
    expect(rec).toMatchObject({ RecordingSource: "DialVerb", RecordingChannels: "2", CallSid: parent });
    expect(h.app.received("/dialed")[0]!.params.RecordingSid).toBe(rec.RecordingSid);
    const transcriptions = h.door.sandbox.store.transcriptions.where("recording", rec.RecordingSid!);
    expect(transcriptions[0]).toMatchObject({ status: "completed", provider: "deepgram" });
    expect(transcriptions[0]!.segments!.map((s) => s.speaker)).toEqual(["agent", "customer"]);
    expect(transcriptions[0]!.text).toBe(
      "Thank you for calling, how can I help you today?\nHi, I have a question about my account.",
    );
  });
});
