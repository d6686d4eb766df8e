// <Dial><Sip>: "Once the SIP session completes, Twilio requests the <Dial> action URL, passing along the SIP CallID
// header, the response code of the invite attempt, ... as well as the standard Twilio <Dial> parameters" (<Sip> page).
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const callee = "+14155550123";
const endpoint = "sip:alice@pbx.example.com";

describe("<Dial><Sip> action parameters", () => {
  const h = useEngine();

  /** The callee answers and is dialled on to `endpoint`; the Dial's action parameters and the SIP leg. */
  const dialSip = async (dialAttrs: Record<string, unknown> = {}) => {
    const r = new VoiceResponse();
    r.dial({ action: "/dialed", ...dialAttrs }).sip(endpoint);
    h.app.on("/answer", r.toString());
    h.app.on("/dialed", new VoiceResponse().hangup().toString());
    const client = h.door.twilioClient();
    const call = await client.calls.create({
      to: callee,
      from: fixtures.acme.mainNumber,
      url: h.app.url("/answer"),
    });
    await h.run();
    const [leg] = await client.calls.list({ parentCallSid: call.sid });
    return { action: h.app.received("/dialed")[0]!.params, leg: leg! };
  };

  it("an endpoint that answers: 200, the INVITE's Call-ID, and the child leg as DialCallSid", async () => {
    h.door.sandbox.calls.setParty(endpoint, { hangupAfter: "5s" });
    const { action, leg } = await dialSip();
    expect(leg).toMatchObject({ to: endpoint, direction: "outbound-dial" });
    expect(action).toMatchObject({
      DialCallStatus: "completed",
      DialCallSid: leg.sid,
      DialSipResponseCode: "200",
      DialSipCallId: `${leg.sid.slice(2)}@sip.voice-sandbox.test`,
    });
  });

  it.each([
    [486, "busy"],
    [600, "busy"],
    [404, "failed"],
    [503, "failed"],
    [480, "no-answer"],
    [603, "no-answer"],
  ])(
    "a scripted endpoint answering %i: DialSipResponseCode the same, DialCallStatus %s",
    async (code, status) => {
      h.door.sandbox.calls.setParty(endpoint, { sipResponseCode: code, answerAfter: "2s" });
      const { action, leg } = await dialSip();
      expect(leg.status).toBe(status);
      expect(action).toMatchObject({
        DialCallStatus: status,
        DialCallSid: leg.sid,
        DialSipResponseCode: String(code),
        DialSipCallId: `${leg.sid.slice(2)}@sip.voice-sandbox.test`,
      });
    },
  );

  it("without a code, the outcome stands for one: busy 486, an INVITE canceled at the Dial's timeout 487", async () => {
    h.door.sandbox.calls.setParty(endpoint, { outcome: "busy" });
    expect((await dialSip()).action).toMatchObject({ DialCallStatus: "busy", DialSipResponseCode: "486" });
    h.app.clear();
    h.door.sandbox.calls.setParty(endpoint, { outcome: "no-answer" });
    expect((await dialSip({ timeout: 5 })).action).toMatchObject({
      DialCallStatus: "no-answer",
      DialSipResponseCode: "487",
    });
  });

  it("a <Number> leg's action has no SIP parameters", async () => {
    const r = new VoiceResponse();
    r.dial({ action: "/dialed" }).number("+14155550188");
    h.app.on("/answer", r.toString());
    h.app.on("/dialed", new VoiceResponse().hangup().toString());
    await h.door
      .twilioClient()
      .calls.create({ to: callee, from: fixtures.acme.mainNumber, url: h.app.url("/answer") });
    await h.run();
    const action = h.app.received("/dialed")[0]!.params;
    expect(action.DialCallSid).toMatch(/^CA/);
    expect(action.DialSipResponseCode).toBeUndefined();
    expect(action.DialSipCallId).toBeUndefined();
  });

  it("a script's SIP code must be 200 or a final error response: the admin API refuses another (422)", async () => {
    const path = `/__sandbox/numbers/${encodeURIComponent(endpoint)}/behaviour`;
    const refused = await h.door.call("PUT", path, {
      json: { sipResponseCode: 302 },
      headers: { "content-type": "application/json" },
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.json)).toContain("sipResponseCode");
    const taken = await h.door.call("PUT", path, {
      json: { sipResponseCode: 486 },
      headers: { "content-type": "application/json" },
    });
    expect(taken.status).toBe(200);
    expect(() => h.door.sandbox.calls.setParty(endpoint, { sipResponseCode: 700 })).toThrow();
  });
});
