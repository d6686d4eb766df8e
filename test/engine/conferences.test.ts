// Conferences: callers meet in a room (waitUrl loop, start, callbacks in order, recording), leave, are released or kicked.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { defaultHoldMusicUrl } from "../../src/markup/wait-loop.js";
import { fixtures } from "../support/fixtures.js";
import { expectJsonApi } from "../support/jsonapi.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const alice = "+14155550201";
const bob = "+14155550202";
const carol = "+14155550203";

describe("conferences", () => {
  const h = useEngine();
  const client = () => h.door.twilioClient();
  /** Every caller of the main number dials the room with these Conference attributes. */
  const room = (attrs: Record<string, unknown>, byCaller: Record<string, Record<string, unknown>> = {}) => {
    h.app.on("/voice", (params) => {
      const r = new VoiceResponse();
      r.dial({ action: "/after" }).conference({ ...attrs, ...(byCaller[params.From!] ?? {}) }, "standup");
      return r.toString();
    });
  };
  const ring = (from: string, caller: Record<string, unknown>) =>
    h.door.sandbox.calls.ring({ from, to: fixtures.acme.mainNumber, caller }).sid;

  it("two callers meet: wait markup loops, the room starts, callbacks come in order, a recording holds both voices", async () => {
    await h.useSttProvider("deepgram");
    await h.routeMainNumber("/voice");
    room({
      waitUrl: "/wait",
      statusCallback: "/conf",
      statusCallbackEvent: ["start", "end", "join", "leave"],
      record: "record-from-start",
      recordingStatusCallback: "/rec",
    });
    const wait = new VoiceResponse();
    wait.say("Please wait for the others");
    h.app.on("/wait", wait.toString());
    h.app.on("/after", new VoiceResponse().toString());
    const a = ring(alice, {
      steps: [{ at: "10s", say: "Good morning, shall we start?", for: "3s" }],
      hangupAfter: "30s",
    });
    await h.door.sandbox.clock.advance(5000);
    const b = ring(bob, {
      steps: [{ at: "10s", say: "Yes, I finished the release notes", for: "3s" }],
      hangupAfter: "40s",
    });
    await h.run();

    // Alice alone: the wait markup ran over and over (2 s of speech each time) with the waitUrl params.
    const waits = h.app.received("/wait");
    expect(waits.length).toBeGreaterThanOrEqual(2);
    expect(waits.every((w) => w.params.CallSid === a)).toBe(true);

    const events = h.app.received("/conf").map((r) => r.params);
    const conferenceSid = events[0]!.ConferenceSid!;
    expect(conferenceSid).toMatch(/^CF[0-9a-f]{32}$/);
    expect(events.map((e) => [e.StatusCallbackEvent, e.CallSid ?? "", e.SequenceNumber])).toEqual([
      ["participant-join", a, "1"],
      ["participant-join", b, "2"],
      ["conference-start", "", "3"],
      ["participant-leave", a, "4"],
      ["participant-leave", b, "5"],
      ["conference-end", "", "6"],
    ]);
    expect(events[5]).toMatchObject({
      FriendlyName: "standup",
      AccountSid: fixtures.acme.sid,
      ReasonConferenceEnded: "last-participant-left",
      CallSidEndingConference: b,
    });

    const conference = await client().conferences(conferenceSid).fetch();
    expect(conference).toMatchObject({
      friendlyName: "standup",
      status: "completed",
      reasonConferenceEnded: "last-participant-left",
    });

    // record-from-start: from the start (5 s) to the end (45 s), both voices, transcribed as two speakers.
    const rec = h.app.received("/rec")[0]!.params;
    expect(rec).toMatchObject({
      ConferenceSid: conferenceSid,
      RecordingSource: "Conference",
      RecordingDuration: "40",
    });
    const recordings = await client().conferences(conferenceSid).recordings.list();
    expect(recordings.map((r) => [r.sid, r.conferenceSid, r.source])).toEqual([
      [rec.RecordingSid, conferenceSid, "Conference"],
    ]);
    const [transcription] = h.door.sandbox.store.transcriptions.where("recording", rec.RecordingSid!);
    expect(transcription!.segments!.map((s) => [s.speaker, s.text, s.start_time])).toEqual([
      ["SPEAKER_00", "Good morning, shall we start?", 5],
      ["SPEAKER_01", "Yes, I finished the release notes", 10],
    ]);

    // Both hung up in the room: each Dial action is posted for the record with DialCallStatus=answered.
    const after = h.app.received("/after").map((r) => r.params);
    expect(after.map((p) => [p.CallSid, p.DialCallStatus, p.ConferenceSid])).toEqual([
      [a, "answered", conferenceSid],
      [b, "answered", conferenceSid],
    ]);
    // Billing stays per leg: each caller's call is priced on its own.
    for (const sid of [a, b]) expect(h.door.sandbox.store.calls.get(sid)!.price).not.toBeNull();
  });

  it("a participant with endConferenceOnExit ends the room: the others are released to their Dial action", async () => {
    await h.routeMainNumber("/voice");
    room({ waitUrl: "" }, { [alice]: { endConferenceOnExit: true } });
    h.app.on("/after", (params) => {
      const r = new VoiceResponse();
      r.say(`The meeting is over, ${params.DialCallStatus}`);
      return r.toString();
    });
    const a = ring(alice, { hangupAfter: "20s" });
    const b = ring(bob, {});
    const c = ring(carol, {});
    await h.run();
    const released = h.app.received("/after").filter((r) => r.params.CallSid !== a);
    expect(released.map((r) => [r.params.CallSid, r.params.DialCallStatus, r.params.CallStatus])).toEqual([
      [b, "answered", "in-progress"],
      [c, "answered", "in-progress"],
    ]);
    expect(h.door.sandbox.calls.heard(b).at(-1)).toMatchObject({
      kind: "say",
      text: "The meeting is over, answered",
    });
    const [conference] = await client().conferences.list({ friendlyName: "standup" });
    expect(conference).toMatchObject({
      status: "completed",
      reasonConferenceEnded: "participant-with-end-conference-on-exit-left",
      callSidEndingConference: a,
    });
    expect(h.door.sandbox.store.calls.get(b)!.status).toBe("completed");
    // Carrier events: the room's start and end, as JSON:API documents.
    const events = expectJsonApi(
      await h.door.call("GET", "/carrier/v1/events?filter[resource_type]=conference", {
        auth: { bearer: fixtures.carrierKey },
      }),
    );
    const listed = events.json.data as { attributes: { event_type: string; resource_id: string } }[];
    expect(listed.map((e) => e.attributes.event_type)).toEqual([
      "conference.created",
      "conference.started",
      "conference.ended",
    ]);
    expect(listed.every((e) => e.attributes.resource_id === conference!.sid)).toBe(true);
  });

  it("maxParticipants keeps the next caller out: its Dial ends with DialCallStatus=failed", async () => {
    await h.routeMainNumber("/voice");
    room({ maxParticipants: 2, waitUrl: "" });
    h.app.on("/after", new VoiceResponse().toString());
    ring(alice, { hangupAfter: "30s" });
    ring(bob, { hangupAfter: "30s" });
    const c = ring(carol, { hangupAfter: "30s" });
    await h.run();
    const third = h.app.received("/after").find((r) => r.params.CallSid === c)!.params;
    expect(third.DialCallStatus).toBe("failed");
    expect(third.ConferenceSid).toBeUndefined();
  });

  it("REST: list by status, mute with a callback, kick a participant to its Dial action, end the room", async () => {
    await h.routeMainNumber("/voice");
    room(
      { waitUrl: "", statusCallback: "/conf", statusCallbackEvent: ["mute", "end"] },
      { [bob]: { participantLabel: "bob" } },
    );
    h.app.on("/after", new VoiceResponse().toString());
    const a = ring(alice, {});
    const b = ring(bob, {});
    const c = ring(carol, {});
    await h.door.sandbox.clock.advance(10_000);
    await h.door.sandbox.settle();

    const [live] = await client().conferences.list({ status: "in-progress" });
    expect(live!.friendlyName).toBe("standup");
    const participants = await client().conferences(live!.sid).participants.list();
    expect(participants.map((p) => [p.callSid, p.muted, p.status])).toEqual([
      [a, false, "connected"],
      [b, false, "connected"],
      [c, false, "connected"],
    ]);

    // participantLabel names a participant in the API in place of its CallSid.
    expect((await client().conferences(live!.sid).participants("bob").fetch()).callSid).toBe(b);
    const muted = await client().conferences(live!.sid).participants(b).update({ muted: true });
    expect(muted.muted).toBe(true);
    const onlyMuted = await client().conferences(live!.sid).participants.list({ muted: true });
    expect(onlyMuted.map((p) => p.callSid)).toEqual([b]);

    // On hold, a caller hears hold music until the hold is lifted.
    await client().conferences(live!.sid).participants(a).update({ hold: true });
    await h.door.sandbox.clock.advance(12_000);
    await client().conferences(live!.sid).participants(a).update({ hold: false });
    await h.door.sandbox.clock.advance(1000);
    const music = h.door.sandbox.calls.heard(a).filter((e) => e.kind === "play");
    expect(music.length).toBeGreaterThanOrEqual(2);
    expect(music.every((e) => e.url === defaultHoldMusicUrl)).toBe(true);
    expect(h.door.sandbox.calls.heard(b).filter((e) => e.kind === "play")).toEqual([]);

    await client().conferences(live!.sid).participants(c).remove();
    await h.door.sandbox.clock.advance(1000);
    await h.door.sandbox.settle();
    expect(h.app.received("/after").map((r) => [r.params.CallSid, r.params.DialCallStatus])).toEqual([
      [c, "answered"],
    ]);
    expect((await client().conferences(live!.sid).participants.list()).map((p) => p.callSid)).toEqual([a, b]);

    const ended = await client().conferences(live!.sid).update({ status: "completed" });
    expect(ended).toMatchObject({ status: "completed", reasonConferenceEnded: "conference-ended-via-api" });
    await h.run();
    expect(
      h.app.received("/conf").map((r) => [r.params.StatusCallbackEvent, r.params.CallSid ?? ""]),
    ).toEqual([
      ["participant-mute", b],
      ["conference-end", ""],
    ]);
    const released = h.app.received("/after").map((r) => r.params.CallSid);
    expect(released).toEqual([c, a, b]);
    for (const sid of [a, b, c]) expect(h.door.sandbox.store.calls.get(sid)!.status).toBe("completed");
  });

  it("what a muted participant says stays out of the conference recording", async () => {
    await h.routeMainNumber("/voice");
    room({ waitUrl: "", record: "record-from-start" }, { [bob]: { muted: true } });
    const a = ring(alice, { steps: [{ at: "4s", say: "Can you hear me", for: "2s" }], hangupAfter: "30s" });
    const b = ring(bob, {
      steps: [
        { at: "8s", say: "I am on mute", for: "2s" },
        { at: "20s", say: "Now you can hear me", for: "2s" },
      ],
    });
    await h.door.sandbox.clock.advance(15_000);
    const [live] = await client().conferences.list({ status: "in-progress" });
    await client().conferences(live!.sid).participants(b).update({ muted: false });
    await h.run();
    const [recording] = h.door.sandbox.store.recordings.all().filter((r) => r.conference_sid === live!.sid);
    expect(recording!.call_sid).toBe(a);
    expect(recording!.speech.map((span) => span.text)).toEqual(["Can you hear me", "Now you can hear me"]);
  });

  it("REST refuses what does not exist, and a bad update changes nothing", async () => {
    await h.routeMainNumber("/voice");
    room({ waitUrl: "" });
    const a = ring(alice, {});
    ring(bob, {});
    await h.door.sandbox.clock.advance(5000);
    await h.door.sandbox.settle();
    const [live] = h.door.sandbox.store.conferences.all();
    const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/Conferences`;
    const auth = { basic: [fixtures.acme.sid, fixtures.acme.authToken] as [string, string] };
    const before = JSON.stringify(h.door.sandbox.snapshot());
    const bad = await h.door.call("POST", `${base}/${live!.sid}.json`, {
      auth,
      form: { Status: "in-progress" },
    });
    expect(bad.status).toBe(400);
    const badMute = await h.door.call("POST", `${base}/${live!.sid}/Participants/${a}.json`, {
      auth,
      form: { Muted: "maybe" },
    });
    expect(badMute.status).toBe(400);
    const announce = await h.door.call("POST", `${base}/${live!.sid}.json`, {
      auth,
      form: { AnnounceUrl: "https://app.example.com/announce", AnnounceMethod: "PUT" },
    });
    expect(announce.status).toBe(400);
    expect(announce.json.message).toContain("AnnounceMethod");
    expect(JSON.stringify(h.door.sandbox.snapshot())).toBe(before);
    const missing = await h.door.call("GET", `${base}/CF${"0".repeat(32)}/Participants.json`, { auth });
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe(20404);
    const notIn = await h.door.call("DELETE", `${base}/${live!.sid}/Participants/CA${"0".repeat(32)}.json`, {
      auth,
    });
    expect(notIn.status).toBe(404);
  });
});
