// A call created with Record=true: "The `recording_url` is sent to the `status_callback` URL" (Twilio's Call create).
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const callee = "+14155550123";

describe("Record=true and the completed status callback", () => {
  const h = useEngine();

  const place = (extra: Record<string, unknown>) =>
    h.door.twilioClient().calls.create({
      to: callee,
      from: fixtures.acme.mainNumber,
      url: h.app.url("/answer"),
      statusCallback: h.app.url("/status"),
      ...extra,
    });

  it("carries RecordingUrl, RecordingSid and RecordingDuration of the call's recording", async () => {
    h.door.sandbox.calls.setParty(callee, { hangupAfter: "12s" });
    const r = new VoiceResponse();
    r.pause({ length: 30 });
    h.app.on("/answer", r.toString());
    const call = await place({ record: true, trim: "do-not-trim" });
    await h.run();

    const completed = h.app.received("/status").find((c) => c.params.CallStatus === "completed")!.params;
    const [recording] = await h.door.twilioClient().calls(call.sid).recordings.list();
    expect(recording).toMatchObject({ source: "OutboundAPI", duration: "12" });
    expect(completed).toMatchObject({
      CallSid: call.sid,
      RecordingSid: recording!.sid,
      RecordingDuration: "12",
      RecordingUrl: `https://api.voice-sandbox.test/2010-04-01/Accounts/${fixtures.acme.sid}/Recordings/${recording!.sid}`,
    });
  });

  it("a call not recorded, or recorded only by a verb, carries none of them", async () => {
    const r = new VoiceResponse();
    r.record({ action: "/recorded", timeout: 2 });
    h.app.on("/answer", r.toString());
    h.app.on("/recorded", new VoiceResponse().toString());
    await place({});
    await h.run();
    const completed = h.app.received("/status").find((c) => c.params.CallStatus === "completed")!.params;
    expect(h.app.received("/recorded")).toHaveLength(1);
    expect(completed.RecordingSid).toBeUndefined();
    expect(completed.RecordingUrl).toBeUndefined();
    expect(completed.RecordingDuration).toBeUndefined();
  });

  it("an unanswered call with Record=true has no recording to name", async () => {
    h.door.sandbox.calls.setParty(callee, { outcome: "busy" });
    await place({ record: true });
    await h.run();
    const final = h.app.received("/status").at(-1)!.params;
    expect(final.CallStatus).toBe("busy");
    expect(final.RecordingSid).toBeUndefined();
  });
});

describe("Record=true and Trim", () => {
  const h = useEngine();

  const recordedCall = async (extra: Record<string, unknown>) => {
    h.door.sandbox.calls.setParty(callee, {
      hangupAfter: "12s",
      steps: [{ at: "2s", say: "Hello there, it is me", for: "3s" }],
    });
    h.app.on("/answer", new VoiceResponse().pause({ length: 30 }).toString());
    const call = await h.door.twilioClient().calls.create({
      to: callee,
      from: fixtures.acme.mainNumber,
      url: h.app.url("/answer"),
      record: true,
      ...extra,
    });
    await h.run();
    const [recording] = await h.door.twilioClient().calls(call.sid).recordings.list();
    return recording!;
  };

  it('"the default is `trim-silence`": the silence before and after what was said is cut', async () => {
    expect((await recordedCall({})).duration).toBe("3");
  });

  it("Trim=do-not-trim keeps the call's recording from answer to hang-up", async () => {
    expect((await recordedCall({ trim: "do-not-trim" })).duration).toBe("12");
  });
});
