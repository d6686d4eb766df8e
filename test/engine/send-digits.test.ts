// sendDigits on <Number> and SendDigits on POST /Calls: DTMF played to the called party once it answers.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { digitSchedule } from "../../src/engine/calls/send-digits.js";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const json = { "content-type": "application/json" };

describe("sendDigits", () => {
  const h = useEngine();
  /** What the called party heard as DTMF, with the offset from the first tone in ms. */
  const tonesHeard = (sid: string) => {
    const tones = h.door.sandbox.calls.heard(sid).filter((e) => e.kind === "digits");
    return tones.map((e) => [e.text, e.at - tones[0]!.at]);
  };

  it("times tones 300 ms apart; w waits half a second, W a second", () => {
    expect(digitSchedule("12w3W#")).toEqual([
      { digit: "1", offset: 0 },
      { digit: "2", offset: 300 },
      { digit: "3", offset: 1100 },
      { digit: "#", offset: 2400 },
    ]);
  });

  it("plays a <Number sendDigits> to the dialled party after it answers", async () => {
    await h.routeMainNumber("/voice");
    h.door.sandbox.calls.setParty("+14155550111", { answerAfter: "3s", hangupAfter: "20s" });
    const r = new VoiceResponse();
    r.dial({ action: "/dialed" }).number({ sendDigits: "ww1234#" }, "+14155550111");
    h.app.on("/voice", r.toString());
    h.app.on("/dialed", new VoiceResponse().toString());
    const res = await h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: "+14155559876", to: fixtures.acme.mainNumber },
      headers: json,
    });
    await h.run();
    const leg = h.app.received("/dialed")[0]!.params.DialCallSid!;
    expect(tonesHeard(leg)).toEqual([
      ["1", 0],
      ["2", 300],
      ["3", 600],
      ["4", 900],
      ["#", 1200],
    ]);
    const timeline = h.door.sandbox.calls.timeline(leg);
    const answered = timeline.find((e) => e.kind === "status" && e.detail.status === "in-progress")!;
    const first = timeline.find((e) => e.kind === "heard.digits")!;
    expect(first.at - answered.at).toBe(1000);
    expect(timeline.find((e) => e.kind === "send-digits")?.detail).toEqual({ digits: "ww1234#" });
    // The caller did not hear them.
    expect(h.door.sandbox.calls.heard(res.json.sid as string)).toEqual([]);
  });

  it("plays SendDigits of POST /Calls to the callee once answered, while the call's markup runs", async () => {
    const answer = new VoiceResponse();
    answer.pause({ length: 5 });
    h.app.on("/answer", answer.toString());
    const call = await h.door.twilioClient().calls.create({
      to: "+14155550123",
      from: fixtures.acme.mainNumber,
      url: h.app.url("/answer"),
      sendDigits: "9w8",
    });
    expect(call.status).toBe("queued");
    await h.run();
    expect(tonesHeard(call.sid)).toEqual([
      ["9", 0],
      ["8", 800],
    ]);
    expect((await h.door.twilioClient().calls(call.sid).fetch()).status).toBe("completed");
  });

  it("refuses a SendDigits with other characters (400, nothing created)", async () => {
    const before = JSON.stringify(h.door.sandbox.snapshot());
    const res = await h.door.call("POST", `/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`, {
      auth: { basic: [fixtures.acme.sid, fixtures.acme.authToken] },
      form: {
        To: "+14155550123",
        From: fixtures.acme.mainNumber,
        Url: h.app.url("/answer"),
        SendDigits: "12x",
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/SendDigits/);
    expect(JSON.stringify(h.door.sandbox.snapshot())).toBe(before);
  });
});
