// Inbound calls: ringing a number through the admin API, the signed voice_url fetch, caller scripts, not-routed numbers.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const caller = "+14155559876";

describe("inbound calls", () => {
  const h = useEngine();
  const ring = (body: Record<string, unknown> = {}) =>
    h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: caller, to: fixtures.acme.mainNumber, ...body },
      headers: { "content-type": "application/json" },
    });

  it("fetches voice_url with CallStatus=ringing, signed, answers on the first verb and completes", async () => {
    await h.routeMainNumber("/voice", { statusCallback: h.app.url("/status") });
    const response = new VoiceResponse();
    response.say("Welcome");
    h.app.on("/voice", response.toString());

    const res = await ring();
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      direction: "inbound",
      from: caller,
      to: fixtures.acme.mainNumber,
      status: "ringing",
    });
    await h.run();

    const fetch = h.app.received("/voice")[0]!;
    expect(fetch.params).toMatchObject({
      CallStatus: "ringing",
      Direction: "inbound",
      From: caller,
      Caller: caller,
    });
    const valid = twilio.validateRequest(
      fixtures.acme.authToken,
      fetch.signature!,
      h.app.url("/voice"),
      fetch.params,
    );
    expect(valid).toBe(true);
    expect(h.app.received("/status").map((r) => r.params.CallStatus)).toEqual(["completed"]);
    const call = await h.door.twilioClient().calls(res.json.sid).fetch();
    expect(call.status).toBe("completed");
    expect(Number(call.price)).toBeLessThan(0);
  });

  it("Reject before answer ends the call busy, unanswered and unbilled", async () => {
    await h.routeMainNumber("/voice", { statusCallback: h.app.url("/status") });
    const response = new VoiceResponse();
    response.reject({ reason: "busy" });
    h.app.on("/voice", response.toString());
    const res = await ring();
    await h.run();
    const call = await h.door.twilioClient().calls(res.json.sid).fetch();
    expect(call.status).toBe("busy");
    expect(call.price).toBeNull();
    expect(h.app.received("/status").map((r) => r.params.CallStatus)).toEqual(["busy"]);
  });

  it("a caller who hangs up ends an answered call completed; the caller's script drives the timing", async () => {
    await h.routeMainNumber("/voice", { statusCallback: h.app.url("/status") });
    const response = new VoiceResponse();
    // A greeting first: a Pause that opens the document would delay pickup.
    response.say("Hello");
    response.pause({ length: 60 });
    h.app.on("/voice", response.toString());
    await ring({ caller: { hangupAfter: "12s" } });
    await h.run();
    expect(h.app.received("/status")[0]!.params).toMatchObject({
      CallStatus: "completed",
      CallDuration: "12",
    });
  });

  it("refuses unknown and released numbers with a clear 404 and creates nothing", async () => {
    const before = JSON.stringify(h.door.sandbox.snapshot());
    const res = await h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: caller, to: fixtures.available.us },
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.json)).toMatch(/not routed/);
    expect(JSON.stringify(h.door.sandbox.snapshot())).toBe(before);
  });

  it("refuses a bad body with 4xx", async () => {
    const res = await h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: "nope", to: fixtures.acme.mainNumber },
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it("a number with a failing voice_url plays the error prompt, records an 11200 alert, and uses the fallback", async () => {
    await h.routeMainNumber("/broken", { voiceFallbackUrl: h.app.url("/fallback") });
    h.app.on("/broken", { status: 500 });
    const fallback = new VoiceResponse();
    fallback.say("Fallback speaking");
    h.app.on("/fallback", fallback.toString());
    const res = await ring();
    await h.run();
    expect(h.app.received("/fallback")[0]!.params).toMatchObject({
      ErrorCode: "11200",
      ErrorUrl: h.app.url("/broken"),
    });
    expect(h.door.sandbox.calls.heard(res.json.sid).map((e) => e.text)).toEqual(["Fallback speaking"]);
    const alerts = await h.door.call("GET", `/__sandbox/alerts?call_sid=${res.json.sid}`);
    expect(alerts.json.alerts.map((a: { code: number }) => a.code)).toEqual([11200]);
  });
});
