// Dial answerOnBridge: the inbound caller stays ringing (unbilled) until the dialled party answers.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;

describe("Dial answerOnBridge", () => {
  const h = useEngine();
  const dialTo = (to: string, attrs: Record<string, unknown> = {}) => {
    const r = new VoiceResponse();
    r.dial({ answerOnBridge: true, action: "/dialed", ...attrs }, to);
    return r.toString();
  };

  it("answers the caller when the dialled party answers: status, duration and billing from then", async () => {
    await h.routeMainNumber("/voice", { statusCallback: h.app.url("/status") });
    h.door.sandbox.calls.setParty("+14155550111", { answerAfter: "20s", hangupAfter: "30s" });
    h.app.on("/voice", dialTo("+14155550111"));
    h.app.on("/dialed", new VoiceResponse().toString());
    const parent = await h.ringMainNumber();
    await h.run();

    const dialed = h.app.received("/dialed")[0]!.params;
    expect(dialed).toMatchObject({ DialCallStatus: "completed", DialCallDuration: "30" });
    const call = await h.door.twilioClient().calls(parent).fetch();
    // Ringing for 20 s did not count: 30 s talking is one billed minute, the call lasted 30 s.
    expect(call).toMatchObject({ status: "completed", duration: "30" });
    expect(Number(call.price)).toBeLessThan(0);
    expect(h.app.received("/status")[0]!.params).toMatchObject({
      CallStatus: "completed",
      CallDuration: "30",
    });
    const statuses = h.door.sandbox.calls
      .timeline(parent)
      .filter((e) => e.kind === "status")
      .map((e) => [e.detail.status, e.at]);
    const started = statuses[0]![1] as number;
    expect(statuses.map(([s, at]) => [s, ((at as number) - started) / 1000])).toEqual([
      ["ringing", 0],
      ["in-progress", 20],
      ["completed", 50],
    ]);
  });

  it("without an answer the caller is never answered: no-answer, no price", async () => {
    await h.routeMainNumber("/voice");
    h.app.on("/voice", dialTo("+15005550003", { timeout: 10, action: undefined }));
    const parent = await h.ringMainNumber();
    await h.run();
    const call = await h.door.twilioClient().calls(parent).fetch();
    expect(call).toMatchObject({ status: "no-answer", price: null, duration: "0" });
  });

  it("a Dial action after no answer still sees the caller ringing; its markup answers the call", async () => {
    await h.routeMainNumber("/voice");
    h.app.on("/voice", dialTo("+15005550002"));
    const after = new VoiceResponse();
    after.say("Please call back later");
    h.app.on("/dialed", after.toString());
    const parent = await h.ringMainNumber();
    await h.run();
    expect(h.app.received("/dialed")[0]!.params).toMatchObject({
      DialCallStatus: "busy",
      CallStatus: "ringing",
    });
    const call = await h.door.twilioClient().calls(parent).fetch();
    expect(call.status).toBe("completed");
    expect(h.door.sandbox.calls.heard(parent).map((e) => e.text)).toEqual(["Please call back later"]);
  });
});
