// Outbound API calls: the lifecycle on the virtual clock, status callbacks in order, and the markup they run.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;

describe("outbound calls", () => {
  const h = useEngine();
  const allEvents = ["initiated", "ringing", "answered", "completed"];

  const place = (to: string, path = "/answer", extra: Record<string, unknown> = {}) =>
    h.door.twilioClient().calls.create({
      to,
      from: fixtures.acme.mainNumber,
      url: h.app.url(path),
      statusCallback: h.app.url("/status"),
      statusCallbackEvent: allEvents,
      ...extra,
    });

  it("answers, runs Say and Hangup, and reports initiated, ringing, in-progress, completed in order", async () => {
    const response = new VoiceResponse();
    response.say({ voice: "alice" }, "Hello from the sandbox");
    response.hangup();
    h.app.on("/answer", response.toString());

    const call = await place("+14155550123");
    expect(call.status).toBe("queued");
    await h.run();

    const statuses = h.app.received("/status").map((r) => [r.params.CallStatus, r.params.SequenceNumber]);
    expect(statuses).toEqual([
      ["initiated", "0"],
      ["ringing", "1"],
      ["in-progress", "2"],
      ["completed", "3"],
    ]);
    const fetch = h.app.received("/answer")[0]!;
    expect(fetch.params).toMatchObject({
      CallSid: call.sid,
      AccountSid: fixtures.acme.sid,
      CallStatus: "in-progress",
      Direction: "outbound-api",
      From: fixtures.acme.mainNumber,
      To: "+14155550123",
      ApiVersion: "2010-04-01",
    });
    expect(fetch.signature).toBeTruthy();
    const completed = h.app.received("/status")[3]!.params;
    expect(completed.CallDuration).toBe("2");
    expect(completed.Timestamp).toMatch(/^\w{3}, \d{2} \w{3} 2026 \d{2}:\d{2}:\d{2} \+0000$/);

    const heard = h.door.sandbox.calls.heard(call.sid);
    expect(heard.map((e) => [e.kind, e.text])).toEqual([["say", "Hello from the sandbox"]]);
    const fetched = await h.door.twilioClient().calls(call.sid).fetch();
    expect(fetched.status).toBe("completed");
    expect(fetched.duration).toBe("2");
    expect(fetched.price).toBe("-0.01300");
  });

  it.each([
    ["+15005550002", "busy", ["initiated", "ringing", "busy"]],
    ["+15005550003", "no-answer", ["initiated", "ringing", "no-answer"]],
    ["+15005550001", "failed", ["initiated", "failed"]],
  ])("a call to test number %s ends %s with that webhook sequence", async (to, status, sequence) => {
    h.app.on("/answer", new VoiceResponse().toString());
    const call = await place(to);
    await h.run();
    expect(h.app.received("/status").map((r) => r.params.CallStatus)).toEqual(sequence);
    expect(h.app.received("/answer")).toHaveLength(0);
    const fetched = await h.door.twilioClient().calls(call.sid).fetch();
    expect(fetched.status).toBe(status);
    expect(fetched.price).toBeNull();
    expect(h.app.received("/status").at(-1)!.params.CallDuration).toBe("0");
  });

  it("cancels a ringing call on Status=canceled: initiated, ringing, canceled", async () => {
    h.app.on("/answer", new VoiceResponse().toString());
    const call = await place("+15005550003");
    await h.door.sandbox.clock.advance(1500);
    const canceled = await h.door.twilioClient().calls(call.sid).update({ status: "canceled" });
    expect(canceled.status).toBe("canceled");
    await h.run();
    expect(h.app.received("/status").map((r) => r.params.CallStatus)).toEqual([
      "initiated",
      "ringing",
      "canceled",
    ]);
  });

  it("hangs up an answered call on Status=completed while it waits", async () => {
    const response = new VoiceResponse();
    response.pause({ length: 30 });
    h.app.on("/answer", response.toString());
    const call = await place("+14155550123");
    await h.door.sandbox.clock.advance(10_000);
    await h.door.twilioClient().calls(call.sid).update({ status: "completed" });
    await h.run();
    const last = h.app.received("/status").at(-1)!.params;
    expect(last.CallStatus).toBe("completed");
    expect(last.CallDuration).toBe("7");
  });

  it("sends only the completed callback when no event is asked for", async () => {
    h.app.on("/answer", new VoiceResponse().toString());
    await place("+14155550123", "/answer", { statusCallbackEvent: undefined });
    await h.run();
    expect(h.app.received("/status").map((r) => r.params.CallStatus)).toEqual(["completed"]);
  });

  it("refuses a call with 402 (code 20042) when the wallet is empty, and creates nothing", async () => {
    const carrier = { bearer: fixtures.carrierKey };
    const balance = await h.door.call("GET", `/carrier/v1/accounts/${fixtures.acme.sid}/balances`, {
      auth: carrier,
    });
    const cents = JSON.stringify(balance.json).match(/"balance_cents":(\d+)/)?.[1] ?? "0";
    if (Number(cents) > 0) {
      const debit = await h.door.call("POST", `/carrier/v1/accounts/${fixtures.acme.sid}/balances/debit`, {
        auth: carrier,
        json: { category: "voice", amount_cents: Number(cents) },
        headers: { "content-type": "application/json" },
      });
      expect(debit.status).toBeLessThan(300);
    }
    const before = JSON.stringify(h.door.sandbox.snapshot());
    const error = await place("+14155550123").catch((e: { status: number; code: number }) => e);
    expect(error).toMatchObject({ status: 402, code: 20042 });
    expect(JSON.stringify(h.door.sandbox.snapshot())).toBe(before);
  });
});
