// WhatsApp and alphanumeric senders through both doors with the twilio client: who may send, and the 24-hour session.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

const sender = `whatsapp:${fixtures.acme.mainNumber}`;
const user = "whatsapp:+15558675310";
const json = { "content-type": "application/json" };

describe.each(doorNames)("message channels via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());
  const registerSender = async () => {
    const res = await ctx.call("PATCH", `/__sandbox/accounts/${fixtures.acme.sid}/settings`, {
      json: { whatsapp_senders: [fixtures.acme.mainNumber] },
      headers: json,
    });
    expect(res.json.whatsapp_senders).toEqual([fixtures.acme.mainNumber]);
  };
  const userWrites = async (body = "Hi") => {
    const res = await ctx.call("POST", "/__sandbox/messages/inbound", {
      json: { from: user, to: sender, body, profile_name: "Ada" },
      headers: json,
    });
    expect(res.status).toBe(201);
    return res.json;
  };
  const settle = async () => {
    await ctx.sandbox.clock.runUntilIdle();
    await ctx.sandbox.settle();
  };
  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => {
        throw new Error("expected a refusal");
      },
      (error: { status: number; code: number }) => ({ status: error.status, code: error.code }),
    );

  it("delivers a free-form WhatsApp message within 24 hours of the user's last message", async () => {
    await registerSender();
    const inbound = await userWrites();
    expect(inbound).toMatchObject({ from: user, to: sender, status: "received", direction: "inbound" });
    const sent = await ctx.twilioClient().messages.create({ from: sender, to: user, body: "Hello Ada" });
    expect(sent).toMatchObject({ from: sender, to: user, status: "queued" });
    await settle();
    const after = await ctx.twilioClient().messages(sent.sid).fetch();
    expect([after.status, after.errorCode]).toEqual(["delivered", null]);
  });

  it("fails a free-form message outside the session with 63016, and sends a template (ContentSid) anyway", async () => {
    await registerSender();
    await userWrites();
    await ctx.sandbox.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const client = ctx.twilioClient();
    const late = await client.messages.create({ from: sender, to: user, body: "Still there?" });
    const template = await client.messages.create({
      from: sender,
      to: user,
      contentSid: `HX${"a".repeat(32)}`,
      contentVariables: JSON.stringify({ 1: "Ada" }),
    });
    await settle();
    const failed = await client.messages(late.sid).fetch();
    expect([failed.status, failed.errorCode, failed.errorMessage]).toEqual([
      "failed",
      63016,
      "Outside messaging window. For WhatsApp, use a Message Template instead",
    ]);
    expect((await client.messages(template.sid).fetch()).status).toBe("delivered");
  });

  it("refuses a WhatsApp sender the account has not registered, and a mixed pair, changing nothing", async () => {
    const client = ctx.twilioClient();
    const before = stateOf();
    expect(await refusal(client.messages.create({ from: sender, to: user, body: "Hi" }))).toEqual({
      status: 400,
      code: 63007,
    });
    await registerSender();
    const registered = stateOf();
    expect(await refusal(client.messages.create({ from: sender, to: "+15558675310", body: "Hi" }))).toEqual({
      status: 400,
      code: 21910,
    });
    expect(
      await refusal(client.messages.create({ from: fixtures.acme.mainNumber, to: user, body: "Hi" })),
    ).toEqual({ status: 400, code: 21910 });
    expect(await refusal(client.messages.create({ from: sender, to: user, contentSid: "HXnope" }))).toEqual({
      status: 400,
      code: 21655,
    });
    expect(stateOf()).toBe(registered);
    expect(before).not.toBe(registered);
  });

  it("sends from an alphanumeric sender ID where the destination takes it, and refuses it elsewhere", async () => {
    const client = ctx.twilioClient();
    const uk = await client.messages.create({
      from: "ACME Ltd",
      to: "+447700900123",
      body: "Your code is 1234",
    });
    expect(uk).toMatchObject({ from: "ACME Ltd", to: "+447700900123", status: "queued" });
    await settle();
    expect((await client.messages(uk.sid).fetch()).status).toBe("delivered");
    const before = stateOf();
    expect(await refusal(client.messages.create({ from: "ACME", to: "+15558675310", body: "Hi" }))).toEqual({
      status: 400,
      code: 21612,
    });
    // Twelve characters, or no letter at all, is not a sender ID.
    expect(
      await refusal(client.messages.create({ from: "ACMEACMEACME", to: "+447700900123", body: "Hi" })),
    ).toEqual({ status: 400, code: 21212 });
    expect(await refusal(client.messages.create({ from: "12345", to: "+447700900123", body: "Hi" }))).toEqual(
      {
        status: 400,
        code: 21212,
      },
    );
    expect(stateOf()).toBe(before);
  });

  it("refuses an inbound WhatsApp message to a number that is not a WhatsApp sender", async () => {
    const res = await ctx.call("POST", "/__sandbox/messages/inbound", {
      json: { from: user, to: sender, body: "Hi" },
      headers: json,
    });
    expect([res.status, res.json.error?.status]).toEqual([404, 404]);
  });
});
