// A Voice SDK client's outgoing call: the application's VoiceUrl answers it, with the client as From and Caller.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const json = { "content-type": "application/json" };

describe("calls a client starts", () => {
  const h = useEngine();

  it("runs the application's VoiceUrl with From and Caller client:alice and the To the client asked for", async () => {
    const application = await h.door
      .twilioClient()
      .applications.create({ friendlyName: "Softphone", voiceUrl: h.app.url("/client-voice") });
    h.app.on("/client-voice", new twilio.twiml.VoiceResponse().say("Connecting you").toString());
    const res = await h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: "client:alice", to: "+15558675310", application_sid: application.sid },
      headers: json,
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ from: "client:alice", to: "+15558675310", direction: "inbound" });
    await h.run();
    const [posted] = h.app.received("/client-voice");
    expect(posted!.params).toMatchObject({
      From: "client:alice",
      Caller: "client:alice",
      To: "+15558675310",
      Direction: "inbound",
      AccountSid: fixtures.acme.sid,
    });
    expect(h.door.sandbox.calls.heard(res.json.sid).map((e) => e.text)).toEqual(["Connecting you"]);
  });

  it("refuses a client's call without an application, or with one that has no VoiceUrl", async () => {
    const noApp = await h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: "client:alice", to: "+15558675310" },
      headers: json,
    });
    expect(noApp.status).toBe(400);
    const silent = await h.door.twilioClient().applications.create({ friendlyName: "Nothing" });
    const res = await h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: "client:alice", application_sid: silent.sid },
      headers: json,
    });
    expect([res.status, res.json.error.message]).toEqual([
      404,
      expect.stringMatching(/no VoiceUrl|with a VoiceUrl/),
    ]);
  });
});
