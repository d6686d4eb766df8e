// Messaging over time: outbound delivery with status callbacks and charges, test numbers, inbound SMS with a reply.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const json = { "content-type": "application/json" };

describe("messaging", () => {
  const h = useEngine();
  const send = (to: string, body = "Hello there") =>
    h.door.twilioClient().messages.create({
      to,
      from: fixtures.acme.mainNumber,
      body,
      statusCallback: h.app.url("/sms-status"),
    });

  it("goes queued -> sending -> sent -> delivered with a callback for each change, and is charged per segment", async () => {
    const message = await send("+14155550123", "x".repeat(161));
    expect(message.status).toBe("queued");
    expect(message.numSegments).toBe("2");
    await h.run();
    expect(h.app.received("/sms-status").map((r) => r.params.MessageStatus)).toEqual([
      "sending",
      "sent",
      "delivered",
    ]);
    const fetched = await h.door.twilioClient().messages(message.sid).fetch();
    expect(fetched.status).toBe("delivered");
    expect(fetched.price).toBe("-0.01580");
    const ledger = await h.door.call(
      "GET",
      `/carrier/v1/accounts/${fixtures.acme.sid}/balances/transactions?category=sms`,
      { auth: { bearer: fixtures.carrierKey } },
    );
    expect(ledger.status).toBe(200);
    expect(JSON.stringify(ledger.json)).toContain(message.sid);
  });

  it("keeps nothing of a message once it settles, however many are sent", async () => {
    const sent = [];
    for (let n = 0; n < 20; n++) sent.push(await send("+14155550123"));
    sent.push(await send("+15005550001"));
    expect(h.door.sandbox.calls.messages.inFlight()).toBe(21);
    await h.run();
    expect(h.app.received("/sms-status").filter((r) => r.params.MessageStatus === "delivered")).toHaveLength(
      20,
    );
    expect(h.door.sandbox.calls.messages.inFlight()).toBe(0);
  });

  it.each([
    ["+15005550001", ["sending", "failed"], "30006"],
    ["+15005550002", ["sending", "sent", "undelivered"], "30003"],
  ])("a message to test number %s ends %j with ErrorCode %s", async (to, statuses, code) => {
    await send(to);
    await h.run();
    const received = h.app.received("/sms-status");
    expect(received.map((r) => r.params.MessageStatus)).toEqual(statuses);
    expect(received.at(-1)!.params.ErrorCode).toBe(code);
  });

  it("an inbound SMS is posted to sms_url, signed, and a <Message> reply becomes an outbound-reply message", async () => {
    const numbers = await h.door
      .twilioClient()
      .incomingPhoneNumbers.list({ phoneNumber: fixtures.acme.mainNumber });
    await h.door
      .twilioClient()
      .incomingPhoneNumbers(numbers[0]!.sid)
      .update({ smsUrl: h.app.url("/sms") });
    const reply = new twilio.twiml.MessagingResponse();
    reply.message("Thanks, we got it");
    h.app.on("/sms", reply.toString());

    const res = await h.door.call("POST", "/__sandbox/messages/inbound", {
      json: { from: "+14155559876", to: fixtures.acme.mainNumber, body: "Hi" },
      headers: json,
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ direction: "inbound", status: "received", body: "Hi" });
    await h.run();
    const posted = h.app.received("/sms")[0]!;
    expect(posted.params).toMatchObject({
      Body: "Hi",
      From: "+14155559876",
      SmsStatus: "received",
      NumSegments: "1",
    });
    expect(
      twilio.validateRequest(fixtures.acme.authToken, posted.signature!, h.app.url("/sms"), posted.params),
    ).toBe(true);
    const messages = await h.door.twilioClient().messages.list({ to: "+14155559876" });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      direction: "outbound-reply",
      from: fixtures.acme.mainNumber,
      body: "Thanks, we got it",
      status: "delivered",
    });
  });

  it("an SMS to a number no account holds is refused with 404 and changes nothing", async () => {
    const before = JSON.stringify(h.door.sandbox.snapshot());
    const res = await h.door.call("POST", "/__sandbox/messages/inbound", {
      json: { from: "+14155559876", to: fixtures.available.us, body: "Hi" },
      headers: json,
    });
    expect(res.status).toBe(404);
    expect(JSON.stringify(h.door.sandbox.snapshot())).toBe(before);
  });
});
