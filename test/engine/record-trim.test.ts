// <Record trim>: what Twilio's <Record> page says of silence at the ends of a recording, through the twilio client.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const callee = "+14155550123";

describe("<Record trim>", () => {
  const h = useEngine();

  /** The callee speaks for 3 s, 1 s after the Record starts listening; the Record ends as `attrs` say. */
  const recordCall = async (attrs: Record<string, unknown>) => {
    h.door.sandbox.calls.setParty(callee, { steps: [{ say: "Please call me back tomorrow", for: "3s" }] });
    const r = new VoiceResponse();
    r.record({ action: "/recorded", recordingStatusCallback: "/recording-status", ...attrs });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    const call = await h.door
      .twilioClient()
      .calls.create({ to: callee, from: fixtures.acme.mainNumber, url: h.app.url("/answer") });
    await h.run();
    const action = h.app.received("/recorded")[0]!.params;
    const status = h.app.received("/recording-status")[0]!.params;
    const resource = await h.door.twilioClient().recordings(action.RecordingSid!).fetch();
    return { call, action, status, resource };
  };

  it('"trim defaults to trim-silence, which removes any silence at the beginning and end of your recording"', async () => {
    // 1 s of silence before the words and the 2 s of silence that ended the recording are cut: 3 s remain.
    const { action, status, resource } = await recordCall({ timeout: 2 });
    expect(action.RecordingDuration).toBe("3");
    expect(status).toMatchObject({ RecordingSid: action.RecordingSid, RecordingDuration: "3" });
    expect(resource.duration).toBe("3");
    expect(h.door.sandbox.store.recordings.get(action.RecordingSid!)!.speech).toEqual([
      { channel: 1, text: "Please call me back tomorrow", start_ms: 0, end_ms: 3000 },
    ]);
  });

  it('"Specify do-not-trim to ensure you don\'t lose silence": the silence before and after the words stays', async () => {
    // Beep, 1 s of silence, 3 s of words, then the 2 s of silence that end it: 6 s of audio.
    const { action, status, resource } = await recordCall({ timeout: 2, trim: "do-not-trim" });
    expect(action.RecordingDuration).toBe("6");
    expect(status.RecordingDuration).toBe("6");
    expect(resource.duration).toBe("6");
    expect(h.door.sandbox.store.recordings.get(action.RecordingSid!)!.speech).toEqual([
      { channel: 1, text: "Please call me back tomorrow", start_ms: 1000, end_ms: 4000 },
    ]);
  });

  it("do-not-trim keeps the trailing silence when maxLength ends the recording; trim-silence cuts it", async () => {
    const kept = await recordCall({ timeout: 30, maxLength: 10, trim: "do-not-trim" });
    expect(kept.action.RecordingDuration).toBe("10");
    expect(kept.resource.duration).toBe("10");
    h.app.clear();
    const trimmed = await recordCall({ timeout: 30, maxLength: 10 });
    expect(trimmed.action.RecordingDuration).toBe("3");
    expect(trimmed.resource.duration).toBe("3");
  });

  it("a finishOnKey press after a pause: trim-silence cuts the pause before the key", async () => {
    h.door.sandbox.calls.setParty(callee, {
      steps: [
        { say: "Call me back", for: "2s" },
        { on: { verb: "Record" }, after: "6s", press: "#" },
      ],
    });
    const r = new VoiceResponse();
    r.record({ action: "/recorded", timeout: 10 });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    await h.door
      .twilioClient()
      .calls.create({ to: callee, from: fixtures.acme.mainNumber, url: h.app.url("/answer") });
    await h.run();
    expect(h.app.received("/recorded")[0]!.params).toMatchObject({ Digits: "#", RecordingDuration: "2" });
  });

  it('an unknown trim value is warning 13699 ("Record: Invalid trim value") and the recording is not trimmed', async () => {
    const { call, action } = await recordCall({ timeout: 2, trim: "sometimes" });
    expect(action.RecordingDuration).toBe("6");
    expect(h.door.sandbox.calls.alerts(call.sid)).toEqual([
      expect.objectContaining({ code: 13699, level: "warning" }),
    ]);
  });
});

describe('<Record timeout="0">', () => {
  const h = useEngine();

  const place = () =>
    h.door
      .twilioClient()
      .calls.create({ to: callee, from: fixtures.acme.mainNumber, url: h.app.url("/answer") });

  it('"To disable this feature, set timeout to 0": silence does not end it, maxLength does', async () => {
    h.door.sandbox.calls.setParty(callee, { steps: [{ say: "Call me back", for: "2s" }] });
    const r = new VoiceResponse();
    r.record({ action: "/recorded", timeout: 0, maxLength: 20, trim: "do-not-trim" });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    const call = await place();
    await h.run();
    expect(h.app.received("/recorded")[0]!.params.RecordingDuration).toBe("20");
    const ended = h.door.sandbox.calls.timeline(call.sid).find((e) => e.kind === "recording.end");
    expect(ended?.detail).toMatchObject({ duration: 20 });
  });

  it("runs until a finishOnKey key, however long the silence before it", async () => {
    h.door.sandbox.calls.setParty(callee, {
      steps: [
        { say: "Call me back", for: "2s" },
        { on: { verb: "Record" }, after: "40s", press: "#" },
      ],
    });
    const r = new VoiceResponse();
    r.record({ action: "/recorded", timeout: 0, trim: "do-not-trim" });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    await place();
    await h.run();
    expect(h.app.received("/recorded")[0]!.params).toMatchObject({ Digits: "#", RecordingDuration: "40" });
  });

  it("runs until the caller hangs up: the action gets Digits=hangup", async () => {
    h.door.sandbox.calls.setParty(callee, {
      steps: [
        { say: "Call me back", for: "2s" },
        { at: "30s", hangup: true },
      ],
    });
    const r = new VoiceResponse();
    r.record({ action: "/recorded", timeout: 0 });
    h.app.on("/answer", r.toString());
    await place();
    await h.run();
    expect(h.app.received("/recorded")[0]!.params).toMatchObject({
      Digits: "hangup",
      RecordingDuration: "2",
    });
  });

  it("with nothing said it is not empty at once: it waits for maxLength, then goes on with the next verb", async () => {
    h.door.sandbox.calls.setParty(callee, { steps: [{ at: "1h", hangup: true }] });
    const r = new VoiceResponse();
    r.record({ action: "/recorded", timeout: 0, maxLength: 15 });
    r.say("No message");
    h.app.on("/answer", r.toString());
    const call = await place();
    await h.run();
    expect(h.app.received("/recorded")).toHaveLength(0);
    const timeline = h.door.sandbox.calls.timeline(call.sid);
    const empty = timeline.find((e) => e.kind === "record.empty")!;
    const started = timeline.find((e) => e.kind === "recording.start")!;
    expect(empty.at - started.at).toBe(15_000);
  });
});
