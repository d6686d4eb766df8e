// Account API messages through both doors with the twilio client: send, list, fetch, redact, cancel, delete.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/Messages`;
const customer = "+15558675310";
const service = "MG00000000000000000000000000000001";

describe.each(doorNames)("messages via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());
  const send = (extra: Record<string, unknown> = {}) =>
    ctx
      .twilioClient()
      .messages.create({ to: customer, from: fixtures.acme.mainNumber, body: "Hello", ...extra });
  /** What the delivery lifecycle would do: mark the message delivered. */
  const deliver = (sid: string) => {
    const message = ctx.sandbox.store.messages.get(sid)!;
    ctx.sandbox.store.messages.replace({
      ...message,
      status: "delivered",
      date_sent: ctx.sandbox.clock.now(),
    });
  };

  it("sends an SMS: queued, SM sid, segments counted", async () => {
    const message = await send({
      body: "a".repeat(161),
      statusCallback: "https://app.example.com/sms-status",
    });
    expect(message.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(message.status).toBe("queued");
    expect(message.direction).toBe("outbound-api");
    expect(message.numSegments).toBe("2");
    expect(message.numMedia).toBe("0");
    expect(message.price).toBeNull();
    expect(message.dateSent).toBeNull();
    expect(message.errorCode).toBeNull();
    expect(message.uri).toBe(`${base}/${message.sid}.json`);
    // Feedback is not served, so it is not advertised.
    expect(message.subresourceUris).toEqual({ media: `${base}/${message.sid}/Media.json` });
    expect(ctx.sandbox.store.messages.get(message.sid)!.status_callback).toBe(
      "https://app.example.com/sms-status",
    );
  });

  it("sends an MMS with repeated MediaUrl: MM sid, num_media, UCS-2 segments", async () => {
    const message = await send({
      body: "✓".repeat(71),
      mediaUrl: ["https://app.example.com/a.png", "https://app.example.com/b.png"],
    });
    expect(message.sid).toMatch(/^MM[0-9a-f]{32}$/);
    expect(message.numMedia).toBe("2");
    expect(message.numSegments).toBe("2");
    expect(ctx.sandbox.store.messages.get(message.sid)!.media_urls).toHaveLength(2);
  });

  it("sends through a MessagingServiceSid (accepted), and schedules with SendAt (scheduled)", async () => {
    const accepted = await ctx
      .twilioClient()
      .messages.create({ to: customer, messagingServiceSid: service, body: "x" });
    expect(accepted.status).toBe("accepted");
    expect(accepted.from).toBe(fixtures.acme.mainNumber);
    expect(accepted.messagingServiceSid).toBe(service);
    const sendAt = new Date(ctx.sandbox.clock.now() + 3_600_000);
    const scheduled = await ctx.twilioClient().messages.create({
      to: customer,
      messagingServiceSid: service,
      body: "later",
      scheduleType: "fixed",
      sendAt,
    });
    expect(scheduled.status).toBe("scheduled");
  });

  it("rejects bad messages with Twilio's codes and changes nothing", async () => {
    const before = stateOf();
    const client = ctx.twilioClient();
    const noTo = await ctx.call("POST", `${base}.json`, {
      auth: acmeAuth,
      form: { From: fixtures.acme.mainNumber, Body: "x" },
    });
    expect(noTo.json).toMatchObject({ status: 400, code: 21604 });
    const cases: [Record<string, unknown>, number][] = [
      [{ to: "12345", from: fixtures.acme.mainNumber, body: "x" }, 21211],
      [{ to: customer, from: fixtures.acme.mainNumber }, 21602],
      [{ to: customer, body: "x" }, 21603],
      [{ to: customer, from: "+14155550101", body: "x" }, 21606],
      [{ to: customer, from: "a-b!c", body: "x" }, 21212],
      [{ to: customer, from: "ACME", body: "x" }, 21612],
      [{ to: customer, from: fixtures.acme.mainNumber, body: "x".repeat(1601) }, 21617],
      [
        {
          to: customer,
          from: fixtures.acme.mainNumber,
          body: "x",
          scheduleType: "fixed",
          sendAt: new Date(ctx.sandbox.clock.now() + 3_600_000),
        },
        35118,
      ],
      [
        {
          to: customer,
          messagingServiceSid: service,
          body: "x",
          scheduleType: "fixed",
          sendAt: new Date(ctx.sandbox.clock.now() + 60_000),
        },
        35114,
      ],
    ];
    for (const [params, code] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately invalid parameters.
      await expect(client.messages.create(params as any)).rejects.toMatchObject({ status: 400, code });
    }
    // Twilio's own wording for the two errors apps match most.
    await expect(
      client.messages.create({ to: "12345", from: fixtures.acme.mainNumber, body: "x" }),
    ).rejects.toMatchObject({ code: 21211, message: "The 'To' number 12345 is not a valid phone number." });
    await expect(client.messages.create({ to: customer, from: "a-b!c", body: "x" })).rejects.toMatchObject({
      code: 21212,
      message: "The 'From' number a-b!c is not a valid phone number, shortcode, or alphanumeric sender ID.",
    });
    expect(stateOf()).toBe(before);
  });

  it("lists newest first with To/From/DateSent filters, and pages with each() and page()", async () => {
    const client = ctx.twilioClient();
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push(await send({ to: `+1555867531${i}`, body: `n${i}` }));
    const list = await client.messages.list();
    expect(list.map((m) => m.sid)).toEqual(sent.map((m) => m.sid).reverse());
    const seen: string[] = [];
    await client.messages.each({ pageSize: 2 }, (m) => {
      seen.push(m.sid);
    });
    expect(seen).toEqual(list.map((m) => m.sid));
    const page = await client.messages.page({ pageSize: 2, pageNumber: 0 });
    expect(page.instances).toHaveLength(2);
    expect((await page.nextPage())!.instances).toHaveLength(2);
    expect((await client.messages.list({ to: "+15558675313" })).map((m) => m.sid)).toEqual([sent[3]!.sid]);
    expect(await client.messages.list({ from: fixtures.acme.mainNumber })).toHaveLength(5);
    deliver(sent[0]!.sid);
    expect(await client.messages.list({ dateSentAfter: new Date("2025-12-31T00:00:00Z") })).toHaveLength(1);
  });

  it("fetches a message, and answers 20404 for an unknown one", async () => {
    const message = await send();
    expect((await ctx.twilioClient().messages(message.sid).fetch()).body).toBe("Hello");
    await expect(
      ctx.twilioClient().messages("SM00000000000000000000000000000000").fetch(),
    ).rejects.toMatchObject({ status: 404, code: 20404 });
  });

  it('redacts the body with Body=""', async () => {
    const message = await send({ body: "my PIN is 1234" });
    const redacted = await ctx.twilioClient().messages(message.sid).update({ body: "" });
    expect(redacted.body).toBe("");
    expect(ctx.sandbox.store.messages.get(message.sid)!.body).toBe("");
    await expect(ctx.twilioClient().messages(message.sid).update({ body: "new" })).rejects.toMatchObject({
      status: 400,
    });
  });

  it("cancels a scheduled message, and refuses to cancel any other with 30409", async () => {
    const scheduled = await ctx.twilioClient().messages.create({
      to: customer,
      messagingServiceSid: service,
      body: "later",
      scheduleType: "fixed",
      sendAt: new Date(ctx.sandbox.clock.now() + 3_600_000),
    });
    expect((await ctx.twilioClient().messages(scheduled.sid).update({ status: "canceled" })).status).toBe(
      "canceled",
    );
    const queued = await send();
    const before = stateOf();
    await expect(
      ctx.twilioClient().messages(queued.sid).update({ status: "canceled" }),
    ).rejects.toMatchObject({
      status: 400,
      code: 30409,
    });
    expect(stateOf()).toBe(before);
  });

  it("deletes a finished message, and refuses one still on its way with 20009", async () => {
    const message = await send();
    const before = stateOf();
    await expect(ctx.twilioClient().messages(message.sid).remove()).rejects.toMatchObject({ code: 20009 });
    expect(stateOf()).toBe(before);
    deliver(message.sid);
    expect(await ctx.twilioClient().messages(message.sid).remove()).toBe(true);
    expect(ctx.sandbox.store.messages.get(message.sid)).toBeUndefined();
  });

  it("lets the Globex messaging key send from Globex's number only when Globex has one", async () => {
    const globex = ctx.twilioClient(fixtures.globex.messagesKey.sid, fixtures.globex.messagesKey.key);
    // twilioClient sets accountSid to Acme for API keys; Globex's key on Acme's path is refused.
    await expect(
      globex.messages.create({ to: customer, from: fixtures.acme.mainNumber, body: "x" }),
    ).rejects.toMatchObject({ status: 403 });
  });
});
