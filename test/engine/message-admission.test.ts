// Messages admitted against the balance as calls are: each holds its price from creation until it is charged at
// `sent` or fails, so messages at once never overdraw the wallet; markup-sent messages fail with 20042 instead.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { acmeWallet, useEngine } from "./harness.js";

const json = { "content-type": "application/json" };
const customer = "+14155550123";

/** The twilio client's error for a refused create, as status and code. */
const refusal = (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: { status: number; code: number }) => ({ status: error.status, code: error.code }),
  );
const insufficient = { status: 402, code: 20042 };

describe("messages admitted against the balance", () => {
  const h = useEngine();
  const { balance, ledgerSum, leaveOnly } = acmeWallet(h);
  const send = (extra: Record<string, unknown> = {}) =>
    h.door.twilioClient().messages.create({
      to: customer,
      from: fixtures.acme.mainNumber,
      body: "Hello",
      statusCallback: h.app.url("/sms-status"),
      ...extra,
    });

  it("holds each message's price by its segments, MMS included, and charges exactly what it held", async () => {
    await leaveOnly(5);
    // US segments cost 0.79 cents: three segments hold 3 cents, two hold 2.
    const long = await send({ body: "x".repeat(307) });
    expect(long.numSegments).toBe("3");
    expect(
      await refusal(send({ body: "y".repeat(307), mediaUrl: ["https://app.example.com/a.png"] })),
    ).toEqual(insufficient);
    const mms = await send({ body: "z".repeat(161), mediaUrl: ["https://app.example.com/b.png"] });
    expect(mms).toMatchObject({ numSegments: "2", numMedia: "1" });
    expect(mms.sid).toMatch(/^MM/);
    // Nothing is charged yet, but nothing is left to hold either.
    expect(await balance()).toBe(5);
    expect(await refusal(send())).toEqual(insufficient);

    await h.run();
    const prices = await Promise.all(
      [long.sid, mms.sid].map(async (sid) => (await h.door.twilioClient().messages(sid).fetch()).price),
    );
    expect(prices).toEqual(["-0.02370", "-0.01580"]);
    expect(await balance()).toBe(0);
    expect(ledgerSum()).toBe(0);
    // At zero, the wallet refuses even a message no rate prices.
    expect(await refusal(send())).toEqual(insufficient);
    expect(await h.door.twilioClient().messages.list({})).toHaveLength(2);
  });

  it("a message that fails before it is sent is not charged and lets go of what it held", async () => {
    await leaveOnly(1);
    const failing = await send({ to: "+15005550001" });
    expect(await refusal(send())).toEqual(insufficient);
    await h.run();
    expect((await h.door.twilioClient().messages(failing.sid).fetch()).status).toBe("failed");
    expect(await balance()).toBe(1);
    const next = await send();
    await h.run();
    expect((await h.door.twilioClient().messages(next.sid).fetch()).status).toBe("delivered");
    expect(await balance()).toBe(0);
    expect(ledgerSum()).toBe(0);
  });

  it("a scheduled message holds its price until it is canceled", async () => {
    await leaveOnly(1);
    const scheduled = await send({
      messagingServiceSid: "MG00000000000000000000000000000001",
      scheduleType: "fixed",
      sendAt: new Date(h.door.sandbox.clock.now() + 3_600_000),
    });
    expect(scheduled.status).toBe("scheduled");
    expect(await refusal(send())).toEqual(insufficient);
    await h.door.twilioClient().messages(scheduled.sid).update({ status: "canceled" });
    const next = await send();
    expect(next.status).toBe("queued");
  });

  it("WhatsApp messages and inbound messages are refused on an empty wallet, and nothing is stored", async () => {
    const settings = await h.door.call("PATCH", `/__sandbox/accounts/${fixtures.acme.sid}/settings`, {
      json: { whatsapp_senders: [fixtures.acme.mainNumber] },
      headers: json,
    });
    expect(settings.status).toBe(200);
    await leaveOnly(0);
    const before = JSON.stringify(h.door.sandbox.store.messages.all());
    const whatsapp = send({
      from: `whatsapp:${fixtures.acme.mainNumber}`,
      to: "whatsapp:+15558675310",
      contentSid: "HX00000000000000000000000000000001",
    });
    expect(await refusal(whatsapp)).toEqual(insufficient);
    for (const [from, to] of [
      ["+14155559876", fixtures.acme.mainNumber],
      ["whatsapp:+15558675310", `whatsapp:${fixtures.acme.mainNumber}`],
    ]) {
      const res = await h.door.call("POST", "/__sandbox/messages/inbound", {
        json: { from, to, body: "Hi" },
        headers: json,
      });
      // The admin API's own error format: status, title and what to do.
      expect(res.status).toBe(402);
      expect(res.json.error).toMatchObject({ status: 402, title: "Insufficient funds" });
    }
    expect(JSON.stringify(h.door.sandbox.store.messages.all())).toBe(before);
  });

  it("<Sms> in a call on a wallet its call already holds: the message fails with 20042 and the call goes on", async () => {
    // The inbound call holds its first minute (2 cents): nothing is left for the text.
    await leaveOnly(2);
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      `<Response><Sms statusCallback="/sms-status" action="/sms-done">Your code is 1234</Sms></Response>`,
    );
    h.app.on("/sms-done", "<Response><Say>Check your phone</Say></Response>");
    const callSid = await h.ringMainNumber();
    await h.run();
    const [message] = await h.door.twilioClient().messages.list({});
    expect(message).toMatchObject({ direction: "outbound-call", status: "failed", errorCode: 20042 });
    expect(message!.price).toBeNull();
    expect(h.app.received("/sms-done")[0]!.params).toMatchObject({
      SmsSid: message!.sid,
      SmsStatus: "failed",
    });
    expect(h.app.received("/sms-status").map((r) => [r.params.MessageStatus, r.params.ErrorCode])).toEqual([
      ["failed", "20042"],
    ]);
    expect(h.door.sandbox.calls.heard(callSid).map((e) => e.text)).toEqual(["Check your phone"]);
    expect((await h.door.twilioClient().calls(callSid).fetch()).status).toBe("completed");
    // The text cost nothing; the call's minute and its speech are charged as ever (speech after the fact).
    const categories = h.door.sandbox.store.ledger.where("account", fixtures.acme.sid).map((e) => e.category);
    expect(categories).not.toContain("sms");
    expect(categories).toContain("voice");
    expect(ledgerSum()).toBe(await balance());
  });

  it("a <Message> reply the wallet cannot cover is stored failed with 20042; the inbound message was charged", async () => {
    await leaveOnly(1);
    await h.routeMainNumberSms("/sms");
    const reply = new twilio.twiml.MessagingResponse();
    reply.message("Thanks, we got it");
    h.app.on("/sms", reply.toString());
    const res = await h.door.call("POST", "/__sandbox/messages/inbound", {
      json: { from: "+14155559876", to: fixtures.acme.mainNumber, body: "Hi" },
      headers: json,
    });
    expect(res.status).toBe(201);
    await h.run();
    const [sent] = await h.door.twilioClient().messages.list({ to: "+14155559876" });
    expect(sent).toMatchObject({ direction: "outbound-reply", status: "failed", errorCode: 20042 });
    expect(await balance()).toBe(0);
    expect(ledgerSum()).toBe(0);
  });
});
