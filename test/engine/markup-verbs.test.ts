// Call-control markup, verb by verb: built with twilio's VoiceResponse, served by a real app, posted params asserted.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const callee = "+14155550123";

describe("markup verbs", () => {
  const h = useEngine();
  const place = (extra: Record<string, unknown> = {}) =>
    h.door
      .twilioClient()
      .calls.create({ to: callee, from: fixtures.acme.mainNumber, url: h.app.url("/answer"), ...extra });

  it("Gather posts the digits the callee presses, without the finish key", async () => {
    h.door.sandbox.calls.setParty(callee, { steps: [{ on: { verb: "Gather" }, after: "2s", press: "42#" }] });
    const r = new VoiceResponse();
    const gather = r.gather({ action: "/gathered", numDigits: 5, timeout: 3 });
    gather.say("Enter your code");
    h.app.on("/answer", r.toString());
    h.app.on("/gathered", new VoiceResponse().toString());
    const call = await place();
    await h.run();
    expect(h.app.received("/gathered")[0]!.params).toMatchObject({
      CallSid: call.sid,
      Digits: "42",
      FinishedOnKey: "#",
      CallStatus: "in-progress",
    });
  });

  it("Gather falls through to the next verb when nobody presses anything", async () => {
    const r = new VoiceResponse();
    r.gather({ action: "/gathered", timeout: 2 }).say("Anyone there?");
    r.say("Goodbye");
    h.app.on("/answer", r.toString());
    const call = await place();
    await h.run();
    expect(h.app.received("/gathered")).toHaveLength(0);
    expect(h.door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["Anyone there?", "Goodbye"]);
  });

  it("Gather with speech posts SpeechResult and Confidence; a digit during the prompt barges in", async () => {
    h.door.sandbox.calls.setParty(callee, { steps: [{ say: "I need billing", confidence: 0.8 }] });
    const r = new VoiceResponse();
    r.gather({ input: ["speech"], action: "/speech" }).say("How can I help?");
    h.app.on("/answer", r.toString());
    await place();
    await h.run();
    expect(h.app.received("/speech")[0]!.params).toMatchObject({
      SpeechResult: "I need billing",
      Confidence: "0.80000000",
    });
  });

  it("Record posts the recording, sends the recording callback, and transcribes what the caller said", async () => {
    h.door.sandbox.calls.setParty(callee, { steps: [{ say: "Please call me back tomorrow", for: "3s" }] });
    const r = new VoiceResponse();
    r.record({
      action: "/recorded",
      timeout: 2,
      transcribe: true,
      transcribeCallback: "/transcribed",
      recordingStatusCallback: "/recording-status",
    });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    const call = await place();
    await h.run();

    const recorded = h.app.received("/recorded")[0]!.params;
    expect(recorded.RecordingSid).toMatch(/^RE[0-9a-f]{32}$/);
    // trim-silence (the default) cuts the second of silence before the words: 3 s remain.
    expect(recorded.RecordingDuration).toBe("3");
    expect(recorded.RecordingUrl).toBe(
      `https://api.voice-sandbox.test/2010-04-01/Accounts/${fixtures.acme.sid}/Recordings/${recorded.RecordingSid}`,
    );
    expect(h.app.received("/recording-status")[0]!.params).toMatchObject({
      RecordingSid: recorded.RecordingSid,
      RecordingStatus: "completed",
      RecordingSource: "RecordVerb",
      RecordingChannels: "1",
      CallSid: call.sid,
    });
    const transcribed = h.app.received("/transcribed")[0]!.params;
    expect(transcribed).toMatchObject({
      TranscriptionStatus: "completed",
      TranscriptionText: "Please call me back tomorrow",
      RecordingSid: recorded.RecordingSid,
    });
    expect(JSON.parse(transcribed.TranscriptionSegments!)).toEqual([
      { speaker: "SPEAKER_00", text: "Please call me back tomorrow", start_time: 0, end_time: 3 },
    ]);
    const heard = h.door.sandbox.calls.heard(call.sid).map((e) => e.kind);
    expect(heard).toEqual(["beep"]);
    const recording = await h.door.twilioClient().recordings(recorded.RecordingSid!).fetch();
    expect(recording.duration).toBe("3");
  });

  it("a failing transcription posts status failed without segments", async () => {
    h.door.sandbox.calls.transcriptions.failAll(true);
    const r = new VoiceResponse();
    r.record({ action: "/recorded", transcribe: true, transcribeCallback: "/transcribed", timeout: 2 });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    await place();
    await h.run();
    const transcribed = h.app.received("/transcribed")[0]!.params;
    expect(transcribed.TranscriptionStatus).toBe("failed");
    expect(transcribed.TranscriptionSegments).toBeUndefined();
  });

  it("the speech-to-text provider can be scripted to return given text instead of what was said", async () => {
    h.door.sandbox.calls.transcriptions.script("*", { text: "Hello from the script\nSecond line" });
    const r = new VoiceResponse();
    r.record({ action: "/recorded", transcribe: true, transcribeCallback: "/transcribed", timeout: 2 });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    await place();
    await h.run();
    const transcribed = h.app.received("/transcribed")[0]!.params;
    expect(transcribed.TranscriptionText).toBe("Hello from the script\nSecond line");
    const segments = JSON.parse(transcribed.TranscriptionSegments!);
    expect(segments.map((s: { speaker: string; text: string }) => [s.speaker, s.text])).toEqual([
      ["SPEAKER_00", "Hello from the script"],
      ["SPEAKER_00", "Second line"],
    ]);
    expect(segments[1].end_time).toBeGreaterThan(segments[0].end_time);
  });

  it("the admin API finishes a pending transcription with the segments it is given", async () => {
    const r = new VoiceResponse();
    r.record({ action: "/recorded", transcribe: true, transcribeCallback: "/transcribed", timeout: 2 });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    await place();
    const { store, clock } = h.door.sandbox;
    let pending = store.transcriptions.all().find((t) => t.status === "in-progress");
    for (let step = 0; !pending && step < 120; step++) {
      await clock.advance(500);
      await h.door.sandbox.settle();
      pending = store.transcriptions.all().find((t) => t.status === "in-progress");
    }
    expect(pending).toBeDefined();
    const segments = [
      { speaker: "SPEAKER_00", text: "Is this the bank?", start_time: 0.5, end_time: 2 },
      { speaker: "SPEAKER_01", text: "Yes it is", start_time: 2.2, end_time: 3 },
    ];
    const failWithText = await h.door.call("POST", `/__sandbox/transcriptions/${pending!.sid}/fail`, {
      json: { text: "no" },
      headers: { "content-type": "application/json" },
    });
    expect(failWithText.status).toBe(400);
    const res = await h.door.call("POST", `/__sandbox/transcriptions/${pending!.sid}/complete`, {
      json: { segments },
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    await h.run();
    const transcribed = h.app.received("/transcribed")[0]!.params;
    expect(transcribed.TranscriptionText).toBe("Is this the bank?\nYes it is");
    expect(JSON.parse(transcribed.TranscriptionSegments!)).toEqual(segments);
  });

  it("Record with nothing said makes no action request and goes on", async () => {
    h.door.sandbox.calls.setParty(callee, { steps: [{ at: "1h", hangup: true }] });
    const r = new VoiceResponse();
    r.record({ action: "/recorded", timeout: 2 });
    r.say("No message");
    h.app.on("/answer", r.toString());
    const call = await place();
    await h.run();
    expect(h.app.received("/recorded")).toHaveLength(0);
    expect(h.door.sandbox.calls.heard(call.sid).map((e) => e.text ?? e.kind)).toEqual(["beep", "No message"]);
  });

  it("Redirect follows a relative URL; Play and Pause are heard and take time", async () => {
    const first = new VoiceResponse();
    first.play({ loop: 2 }, "https://cdn.example.test/hold.mp3");
    first.pause({ length: 3 });
    first.redirect("/second");
    const second = new VoiceResponse();
    second.say("Second document");
    h.app.on("/answer", first.toString());
    h.app.on("/second", second.toString());
    h.app.on("/status", "");
    const call = await place({ statusCallback: h.app.url("/status") });
    await h.run();
    expect(h.door.sandbox.calls.heard(call.sid).map((e) => e.url ?? e.text)).toEqual([
      "https://cdn.example.test/hold.mp3",
      "https://cdn.example.test/hold.mp3",
      "Second document",
    ]);
    expect(h.app.received("/status")[0]!.params.CallDuration).toBe("14");
  });

  it("inline Twiml on create runs the same way", async () => {
    const r = new VoiceResponse();
    r.say("Inline hello");
    const call = await h.door
      .twilioClient()
      .calls.create({ to: callee, from: fixtures.acme.mainNumber, twiml: r.toString() });
    await h.run();
    expect(h.door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["Inline hello"]);
  });

  it.each([
    ["an unknown verb", "<Response><Dance/></Response>", 12200],
    ["a document that is not XML", "this is not markup", 12100],
    ["a wrong root element", "<Html><Say>x</Say></Html>", 12100],
    ["an entity declaration", '<!DOCTYPE r [<!ENTITY a "b">]><Response><Say>&a;</Say></Response>', 12100],
    ["elements nested 9,000 deep", `<Response>${"<a>".repeat(9000)}${"</a>".repeat(9000)}</Response>`, 12100],
  ])("%s fails the call with an alert, the error prompt and the fallback URL", async (_name, body, code) => {
    h.app.on("/answer", body);
    const fallback = new VoiceResponse();
    fallback.say("Sorry");
    h.app.on("/fallback", fallback.toString());
    const call = await place({ fallbackUrl: h.app.url("/fallback") });
    await h.run();
    expect(h.door.sandbox.calls.alerts(call.sid).map((a) => a.code)).toEqual([code]);
    expect(h.app.received("/fallback")[0]!.params.ErrorCode).toBe(String(code));
    expect(h.door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["Sorry"]);
    const events = await h.door.call("GET", "/carrier/v1/events?filter%5Btype%5D=call.error", {
      auth: { bearer: fixtures.carrierKey },
    });
    expect(events.text).toContain("call.error");
    expect(events.json.data).toHaveLength(1);
  });

  it("an invalid document with no fallback plays the application error and completes", async () => {
    h.app.on("/answer", "<Response><Say>unclosed</Response>");
    const call = await place();
    await h.run();
    expect(h.door.sandbox.calls.heard(call.sid)[0]!.kind).toBe("error-prompt");
    const fetched = await h.door.twilioClient().calls(call.sid).fetch();
    expect(fetched.status).toBe("completed");
  });

  it("a REST redirect while a verb runs stops it and runs the new markup", async () => {
    const r = new VoiceResponse();
    r.pause({ length: 100 });
    h.app.on("/answer", r.toString());
    const next = new VoiceResponse();
    next.say("Redirected here");
    h.app.on("/next", next.toString());
    const call = await place();
    await h.door.sandbox.clock.advance(10_000);
    await h.door
      .twilioClient()
      .calls(call.sid)
      .update({ url: h.app.url("/next") });
    await h.run();
    expect(h.door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["Redirected here"]);
    const fetched = await h.door.twilioClient().calls(call.sid).fetch();
    expect(fetched.duration).toBe("8");
  });
});
