// Conference status callbacks as Twilio's <Conference> page has them: speaker events, why a participant left, and coach.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const alice = "+14155550201";
const bob = "+14155550202";
const carol = "+14155550203";

describe("conference status callbacks", () => {
  const h = useEngine();
  /** Every caller of the main number dials the room `standup`; `byCaller` adds attributes per caller. */
  const room = (attrs: Record<string, unknown>, byCaller: Record<string, Record<string, unknown>> = {}) => {
    h.app.on("/voice", (params) => {
      const r = new VoiceResponse();
      r.dial({ action: "/after" }).conference({ ...attrs, ...(byCaller[params.From!] ?? {}) }, "standup");
      return r.toString();
    });
    h.app.on("/after", new VoiceResponse().toString());
  };
  const ring = (from: string, caller: Record<string, unknown>) =>
    h.door.sandbox.calls.ring({ from, to: fixtures.acme.mainNumber, caller }).sid;
  const events = (kind?: string) =>
    h.app
      .received("/conf")
      .map((r) => r.params)
      .filter((e) => kind === undefined || e.StatusCallbackEvent === kind);

  it('statusCallbackEvent="speaker": participant-speech-start and participant-speech-stop as a participant talks', async () => {
    await h.routeMainNumber("/voice");
    room({ statusCallback: "/conf", statusCallbackEvent: ["speaker"] });
    const a = ring(alice, {
      steps: [{ at: "10s", say: "Good morning everyone", for: "3s" }],
      hangupAfter: "30s",
    });
    ring(bob, { hangupAfter: "30s" });
    await h.run();
    const spoken = events().filter((e) => e.StatusCallbackEvent!.startsWith("participant-speech"));
    expect(spoken.map((e) => [e.StatusCallbackEvent, e.CallSid])).toEqual([
      ["participant-speech-start", a],
      ["participant-speech-stop", a],
    ]);
    // Alice starts at 10 s after her answer and talks for 3 s: the stop is 3 s after the start.
    const [start, stop] = spoken.map((e) => Date.parse(e.Timestamp!));
    expect(stop! - start!).toBe(3000);
    expect(events("participant-join")).toEqual([]);
  });

  it("speaker events are for those the room hears: a muted participant's words send none", async () => {
    await h.routeMainNumber("/voice");
    room({ statusCallback: "/conf", statusCallbackEvent: ["speaker"] }, { [alice]: { muted: true } });
    ring(alice, { steps: [{ at: "10s", say: "Can anyone hear me", for: "2s" }], hangupAfter: "30s" });
    ring(bob, { hangupAfter: "30s" });
    await h.run();
    expect(events().filter((e) => e.StatusCallbackEvent!.startsWith("participant-speech"))).toEqual([]);
  });

  it("participant-leave carries ParticipantCallStatus and ReasonParticipantLeft", async () => {
    await h.routeMainNumber("/voice");
    room(
      { statusCallback: "/conf", statusCallbackEvent: ["leave"] },
      { [carol]: { endConferenceOnExit: true } },
    );
    const a = ring(alice, { hangupAfter: "10s" });
    const b = ring(bob, { hangupAfter: "60s" });
    const c = ring(carol, { hangupAfter: "60s" });
    await h.door.sandbox.clock.advance(20_000);
    await h.door.sandbox.settle();
    const [conference] = await h.door.twilioClient().conferences.list({ status: "in-progress" });
    await h.door.twilioClient().conferences(conference!.sid).participants(b).remove();
    await h.door.sandbox.clock.advance(5_000);
    await h.door.sandbox.settle();
    await h.door.twilioClient().calls(c).update({ twiml: "<Response><Say>Bye</Say></Response>" });
    await h.run();
    expect(
      events("participant-leave").map((e) => [e.CallSid, e.ParticipantCallStatus, e.ReasonParticipantLeft]),
    ).toEqual([
      [a, "completed", "participant_hung_up"],
      [b, "in-progress", "participant_removed_via_api"],
      [c, "in-progress", "participant_updated_via_api"],
    ]);
  });

  it("a conference that ends releases the rest: their leave says conference_ended", async () => {
    await h.routeMainNumber("/voice");
    room(
      { statusCallback: "/conf", statusCallbackEvent: ["leave"] },
      { [alice]: { endConferenceOnExit: true } },
    );
    const a = ring(alice, { hangupAfter: "10s" });
    const b = ring(bob, { hangupAfter: "60s" });
    await h.run();
    expect(events("participant-leave").map((e) => [e.CallSid, e.ReasonParticipantLeft])).toEqual([
      [a, "participant_hung_up"],
      [b, "conference_ended"],
    ]);
  });

  it("coach names a call in the room: the coach joins coaching it, and the callbacks say so", async () => {
    await h.routeMainNumber("/voice");
    let coached = "";
    h.app.on("/voice", (params) => {
      const r = new VoiceResponse();
      const attrs = params.From === carol ? { coach: coached } : {};
      r.dial({ action: "/after" }).conference(
        { statusCallback: "/conf", statusCallbackEvent: ["join"], ...attrs },
        "standup",
      );
      return r.toString();
    });
    h.app.on("/after", new VoiceResponse().toString());
    coached = ring(alice, { hangupAfter: "60s" });
    ring(bob, { hangupAfter: "60s" });
    await h.door.sandbox.clock.advance(10_000);
    await h.door.sandbox.settle();
    const c = ring(carol, { hangupAfter: "20s" });
    await h.door.sandbox.clock.advance(5_000);
    await h.door.sandbox.settle();
    const [conference] = await h.door.twilioClient().conferences.list({ status: "in-progress" });
    const coach = await h.door.twilioClient().conferences(conference!.sid).participants(c).fetch();
    expect(coach).toMatchObject({ coaching: true, callSidToCoach: coached });
    await h.run();
    expect(events("participant-join").find((e) => e.CallSid === c)).toMatchObject({
      Coaching: "true",
      CallSidToCoach: coached,
    });
  });

  it("a coach is not heard by the room: its words stay out of the conference's recording", async () => {
    await h.routeMainNumber("/voice");
    let coached = "";
    h.app.on("/voice", (params) => {
      const r = new VoiceResponse();
      const attrs = params.From === carol ? { coach: coached } : { record: "record-from-start" as const };
      r.dial({ action: "/after" }).conference(attrs, "standup");
      return r.toString();
    });
    h.app.on("/after", new VoiceResponse().toString());
    coached = ring(alice, { steps: [{ at: "12s", say: "Hello Bob", for: "2s" }], hangupAfter: "40s" });
    ring(bob, { hangupAfter: "40s" });
    await h.door.sandbox.clock.advance(10_000);
    await h.door.sandbox.settle();
    ring(carol, { steps: [{ at: "5s", say: "Ask about the renewal", for: "2s" }], hangupAfter: "20s" });
    await h.run();
    const [recording] = h.door.sandbox.store.recordings.all().filter((r) => r.source === "Conference");
    expect(recording!.speech.map((s) => s.text)).toEqual(["Hello Bob"]);
  });

  it('coach naming a call not in the conference: error 13240 and "the call fails to the action URL"', async () => {
    await h.routeMainNumber("/voice");
    room({ coach: "CA0123456789abcdef0123456789abcdef" });
    const a = ring(alice, { hangupAfter: "60s" });
    await h.run();
    expect(h.app.received("/after")[0]!.params).toMatchObject({ CallSid: a, DialCallStatus: "failed" });
    expect(h.door.sandbox.calls.alerts(a).map((x) => x.code)).toEqual([13240]);
    expect(await h.door.twilioClient().conferences.list()).toEqual([]);
  });

  describe("coaching through the Participants API", () => {
    /** Alice and Bob talk in a running room; the account's client and the room's sid. */
    const runningRoom = async () => {
      await h.routeMainNumber("/voice");
      room({});
      const a = ring(alice, { hangupAfter: "120s" });
      const b = ring(bob, { hangupAfter: "120s" });
      await h.door.sandbox.clock.advance(10_000);
      await h.door.sandbox.settle();
      const client = h.door.twilioClient();
      const [conference] = await client.conferences.list({ status: "in-progress" });
      return { a, b, client, participants: client.conferences(conference!.sid).participants };
    };

    it('"The participant being coached is the only participant who can hear the participant who is coaching"', async () => {
      const { a, b, participants } = await runningRoom();
      const added = await participants.create({
        from: fixtures.acme.mainNumber,
        to: carol,
        coaching: true,
        callSidToCoach: a,
      });
      expect(added).toMatchObject({ status: "queued", coaching: true, callSidToCoach: a });
      await h.door.sandbox.clock.advance(5_000);
      await h.door.sandbox.settle();
      expect(await participants(added.callSid).fetch()).toMatchObject({ coaching: true, callSidToCoach: a });
      expect((await participants.list({ coaching: true })).map((p) => p.callSid)).toEqual([added.callSid]);
      expect((await participants.list({ coaching: false })).map((p) => p.callSid)).toEqual([a, b]);

      const moved = await participants(added.callSid).update({ callSidToCoach: b });
      expect(moved).toMatchObject({ coaching: true, callSidToCoach: b });
      const stopped = await participants(added.callSid).update({ coaching: false });
      expect(stopped).toMatchObject({ coaching: false, callSidToCoach: null });
      const again = await participants(added.callSid).update({ coaching: true, callSidToCoach: a });
      expect(again).toMatchObject({ coaching: true, callSidToCoach: a });
    });

    it("refuses a call to coach that is not in the room (16028), and Coaching=true without one", async () => {
      const { a, participants } = await runningRoom();
      const code = (promise: Promise<unknown>) =>
        promise.then(
          () => "accepted",
          (e: { status: number; code: number }) => `${e.status} ${e.code}`,
        );
      const absent = "CA0123456789abcdef0123456789abcdef";
      const base = { from: fixtures.acme.mainNumber, to: carol };
      expect(await code(participants.create({ ...base, coaching: true, callSidToCoach: absent }))).toBe(
        "400 16028",
      );
      expect(await code(participants.create({ ...base, coaching: true }))).toBe("400 21200");
      expect(await code(participants.create({ ...base, callSidToCoach: "CA12" }))).toBe("400 21200");
      expect(await code(participants(a).update({ callSidToCoach: a }))).toBe("400 16028");
      expect(await code(participants(a).update({ callSidToCoach: absent, muted: true }))).toBe("400 16028");
      expect(await participants(a).fetch()).toMatchObject({ coaching: false, muted: false });
      expect(await code(participants(a).update({ coaching: true }))).toBe("400 21200");
      expect((await participants.list()).length).toBe(2);
    });
  });

  describe("AnnounceUrl", () => {
    /** Alice and Bob in a running room whose status callback asks for announcement events. */
    const runningRoom = async () => {
      await h.routeMainNumber("/voice");
      room({ statusCallback: "/conf", statusCallbackEvent: ["announcement"] });
      const a = ring(alice, { hangupAfter: "120s" });
      const b = ring(bob, { hangupAfter: "120s" });
      await h.door.sandbox.clock.advance(10_000);
      await h.door.sandbox.settle();
      const client = h.door.twilioClient();
      const [conference] = await client.conferences.list({ status: "in-progress" });
      return { a, b, client, sid: conference!.sid };
    };
    const said = (callSid: string) =>
      h.door.sandbox.calls
        .heard(callSid)
        .filter((e) => e.kind === "say")
        .map((e) => e.text);

    it('into the room: "The URL may return ... a TwiML document that contains <Play>, <Say>, <Pause>, or <Redirect> verbs"', async () => {
      const { a, b, client, sid } = await runningRoom();
      h.app.on("/announce", new VoiceResponse().say("The meeting ends in five minutes").toString());
      await client.conferences(sid).update({ announceUrl: h.app.url("/announce") });
      await h.run();
      expect(said(a)).toEqual(["The meeting ends in five minutes"]);
      expect(said(b)).toEqual(["The meeting ends in five minutes"]);
      // Fetched once for the room, POST by default, and the end of it reported once.
      expect(h.app.received("/announce").map((r) => r.method)).toEqual(["POST"]);
      expect(events().map((e) => [e.StatusCallbackEvent, e.AnnounceUrl])).toEqual([
        ["announcement-end", h.app.url("/announce")],
      ]);
    });

    it("to one participant: only it hears the announcement", async () => {
      const { a, b, client, sid } = await runningRoom();
      h.app.on("/announce", new VoiceResponse().say("You are next").toString());
      await client
        .conferences(sid)
        .participants(a)
        .update({ announceUrl: h.app.url("/announce"), announceMethod: "GET" });
      await h.run();
      expect(said(a)).toEqual(["You are next"]);
      expect(said(b)).toEqual([]);
      expect(h.app.received("/announce").map((r) => r.method)).toEqual(["GET"]);
      expect(events()).toEqual([
        expect.objectContaining({ StatusCallbackEvent: "announcement-end", CallSid: a }),
      ]);
    });

    it("a document that cannot be fetched: announcement-failed, an alert, and nobody hears anything", async () => {
      const { a, b, client, sid } = await runningRoom();
      h.app.on("/announce", { status: 500 });
      await client.conferences(sid).update({ announceUrl: h.app.url("/announce") });
      await h.run();
      expect(said(a)).toEqual([]);
      expect(said(b)).toEqual([]);
      expect(events().map((e) => e.StatusCallbackEvent)).toEqual(["announcement-failed"]);
      expect(
        [...h.door.sandbox.calls.alerts(a), ...h.door.sandbox.calls.alerts(b)].map((x) => x.code),
      ).toEqual([11200]);
    });

    it("fails as Twilio does: a room not in progress 21220, a bad URL 21205, a bad method 21209", async () => {
      const { a, client, sid } = await runningRoom();
      const code = (promise: Promise<unknown>) =>
        promise.then(
          () => "accepted",
          (e: { status: number; code: number }) => `${e.status} ${e.code}`,
        );
      expect(await code(client.conferences(sid).update({ announceUrl: "not a url" }))).toBe("400 21205");
      expect(
        await code(client.conferences(sid).update({ announceUrl: h.app.url("/x"), announceMethod: "PUT" })),
      ).toBe("400 21209");
      expect(await code(client.conferences(sid).participants(a).update({ announceUrl: "ftp://x" }))).toBe(
        "400 21205",
      );
      await client.conferences(sid).update({ status: "completed" });
      expect(await code(client.conferences(sid).update({ announceUrl: h.app.url("/x") }))).toBe("400 21220");
      await h.run();
      expect(h.app.received("/x")).toEqual([]);
    });
  });
});
