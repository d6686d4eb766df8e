// Carrier phone calls, messages, TTS events and events through both doors: filters, paging, corrections, refusals.
import { describe, expect, it } from "vitest";
import { recordTtsEvent } from "../../src/engine/billing/tts-events.js";
import { createCallRecord } from "../../src/engine/calls/calls.js";
import { sendMessage } from "../../src/engine/messaging/messages.js";
import { document, expectRefused } from "../support/carrier.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures } from "../support/fixtures.js";

const feb3 = Date.UTC(2026, 1, 3, 10, 15, 0);

describe.each(doorNames)("carrier usage records via %s", (door) => {
  const ctx = useDoor(door);
  /** A PATCH of `type` with `attributes` and `id` on `path` that must be refused with `status` and `error`. */
  const refusePatch = (
    path: string,
    type: string,
    attributes: Record<string, unknown>,
    id: string,
    status: number,
    error: Record<string, unknown>,
  ) =>
    expectRefused(
      ctx,
      () => ctx.call("PATCH", path, { auth: carrierAuth, json: document(type, attributes, { id }) }),
      status,
      error,
    );
  const ids = (res: { json: { data: { id: string }[] } }) => res.json.data.map((r) => r.id);
  const get = (path: string) => ctx.call("GET", path, { auth: carrierAuth });

  function seedCalls() {
    const engine = ctx.sandbox.engine;
    const inbound = createCallRecord(engine, {
      accountSid: fixtures.acme.sid,
      direction: "inbound",
      from: "+15005550006",
      to: fixtures.acme.mainNumber,
    });
    const outbound = createCallRecord(engine, {
      accountSid: fixtures.acme.sid,
      direction: "outbound-api",
      from: fixtures.acme.mainNumber,
      to: "+442071838750",
    });
    const globex = createCallRecord(engine, {
      accountSid: fixtures.globex.sid,
      direction: "outbound-api",
      from: "+14155550102",
      to: "+14155550123",
    });
    const done = ctx.sandbox.store.calls.replace({
      ...outbound,
      status: "completed",
      duration: 75,
      price: "-0.02600",
      created_at: feb3,
    });
    return { inbound, outbound: done, globex };
  }

  it("lists calls with every filter, pages them, and fetches one", async () => {
    const { inbound, outbound, globex } = seedCalls();
    expect(ids(await get("/carrier/v1/phone_calls"))).toEqual([inbound.sid, outbound.sid, globex.sid]);
    expect(ids(await get(`/carrier/v1/phone_calls?filter[account_id]=${fixtures.acme.sid}`))).toEqual([
      inbound.sid,
      outbound.sid,
    ]);
    expect(ids(await get("/carrier/v1/phone_calls?filter[status]=completed"))).toEqual([outbound.sid]);
    expect(ids(await get("/carrier/v1/phone_calls?filter[direction]=inbound"))).toEqual([inbound.sid]);
    expect(ids(await get("/carrier/v1/phone_calls?filter[from]=%2B15005550006"))).toEqual([inbound.sid]);
    // An unencoded "+" arrives as a space and still matches.
    expect(ids(await get("/carrier/v1/phone_calls?filter[to]=+442071838750"))).toEqual([outbound.sid]);
    expect(
      ids(await get("/carrier/v1/phone_calls?filter[from_date]=2026-02-01&filter[to_date]=2026-02-03")),
    ).toEqual([outbound.sid]);
    expect(ids(await get("/carrier/v1/phone_calls?filter[to_date]=2026-02-02"))).toEqual([
      inbound.sid,
      globex.sid,
    ]);

    const page = await get("/carrier/v1/phone_calls?per_page=2&page=1");
    expect(ids(page)).toEqual([globex.sid]);
    expect(page.json.links.prev).toBe("/carrier/v1/phone_calls?page=0&per_page=2");
    expect(page.json.meta).toEqual({ total: 3, page: 1, per_page: 2 });

    const one = await get(`/carrier/v1/phone_calls/${outbound.sid}`);
    expect(one.json.data).toMatchObject({
      type: "phone_call",
      id: outbound.sid,
      attributes: {
        account_id: fixtures.acme.sid,
        direction: "outbound-api",
        status: "completed",
        duration: "75",
        price: "-0.02600",
        price_unit: "USD",
        created_at: "2026-02-03T10:15:00Z",
      },
      relationships: {
        account: { data: { type: "account", id: fixtures.acme.sid } },
        sip_trunk: { data: null },
      },
    });
  });

  it("corrects a call's price with PATCH, and records the change", async () => {
    const { outbound } = seedCalls();
    const path = `/carrier/v1/phone_calls/${outbound.sid}`;
    const res = await ctx.call("PATCH", path, {
      auth: carrierAuth,
      json: document("phone_call", { price: "-0.01000" }, { id: outbound.sid }),
    });
    expect(res.status).toBe(200);
    expect(res.json.data.attributes.price).toBe("-0.01000");
    const events = await get(
      `/carrier/v1/events?filter[type]=phone_call.updated&filter[resource_id]=${outbound.sid}`,
    );
    expect(events.json.data[0].attributes.details.data.attributes.price).toBe("-0.01000");

    await refusePatch(path, "phone_call", { price: "0.05" }, outbound.sid, 422, {
      source: { pointer: "/data/attributes/price" },
    });
    await refusePatch(path, "phone_call", { status: "failed" }, outbound.sid, 422, {
      source: { pointer: "/data/attributes/status" },
    });
    await refusePatch(path, "message", { price: "-1" }, outbound.sid, 409, {
      source: { pointer: "/data/type" },
    });
    await expectRefused(ctx, () => get("/carrier/v1/phone_calls/CA00000000000000000000000000000000"), 404);
    await expectRefused(ctx, () => get("/carrier/v1/phone_calls?filter[status]=ringing-ish"), 400, {
      source: { parameter: "filter[status]" },
    });
    await expectRefused(ctx, () => get("/carrier/v1/phone_calls?filter[from_date]=yesterday"), 400, {
      source: { parameter: "filter[from_date]" },
    });
    await expectRefused(ctx, () => get("/carrier/v1/phone_calls?page=-1"), 400, {
      source: { parameter: "page" },
    });
    await expectRefused(ctx, () => ctx.call("GET", "/carrier/v1/phone_calls", { auth: acmeAuth }), 403);
  });

  it("lists messages with every filter of the spec, and corrects status and price", async () => {
    const engine = ctx.sandbox.engine;
    const sms = sendMessage(engine, {
      accountSid: fixtures.acme.sid,
      from: fixtures.acme.mainNumber,
      to: "+14155550123",
      body: "hi",
    });
    const mms = sendMessage(engine, {
      accountSid: fixtures.acme.sid,
      from: fixtures.acme.mainNumber,
      to: "+14155550124",
      body: "look",
      mediaUrls: ["https://example.com/cat.png"],
    });
    const other = sendMessage(engine, {
      accountSid: fixtures.globex.sid,
      from: "+14155550102",
      to: "+14155550123",
      body: "yo",
    });
    ctx.sandbox.store.messages.replace({
      ...ctx.sandbox.store.messages.get(other.sid)!,
      created_at: feb3,
      status: "delivered",
    });

    expect(ids(await get(`/carrier/v1/messages?filter[account_id]=${fixtures.acme.sid}`))).toEqual([
      sms.sid,
      mms.sid,
    ]);
    expect(ids(await get("/carrier/v1/messages?filter[to]=%2B14155550123"))).toEqual([sms.sid, other.sid]);
    expect(ids(await get("/carrier/v1/messages?filter[from]=%2B14155550102"))).toEqual([other.sid]);
    expect(ids(await get("/carrier/v1/messages?filter[status]=delivered"))).toEqual([other.sid]);
    expect(ids(await get("/carrier/v1/messages?filter[message_type]=mms"))).toEqual([mms.sid]);
    expect(ids(await get("/carrier/v1/messages?filter[message_type]=sms"))).toEqual([sms.sid, other.sid]);
    expect(ids(await get("/carrier/v1/messages?filter[created_at]=2026-02-03"))).toEqual([other.sid]);
    expect(ids(await get("/carrier/v1/messages?filter[created_at]=2026-01"))).toEqual([sms.sid, mms.sid]);
    expect(ids(await get("/carrier/v1/messages?per_page=1&page=2"))).toEqual([other.sid]);

    const fetched = await get(`/carrier/v1/messages/${mms.sid}`);
    expect(fetched.json.data).toMatchObject({
      type: "message",
      attributes: { message_type: "mms", num_media: 1, body: "look", account_id: fixtures.acme.sid },
    });

    const path = `/carrier/v1/messages/${sms.sid}`;
    const patched = await ctx.call("PATCH", path, {
      auth: carrierAuth,
      json: document("message", { status: "undelivered", price: "-0.00790" }, { id: sms.sid }),
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data.attributes).toMatchObject({ status: "undelivered", price: "-0.00790" });
    const changed = await get(
      `/carrier/v1/events?filter[type]=message.status_changed&filter[resource_id]=${sms.sid}`,
    );
    expect(changed.json.data[0].attributes.details.data.attributes.status).toBe("undelivered");

    await refusePatch(path, "message", { status: "lost" }, sms.sid, 422, {
      source: { pointer: "/data/attributes/status" },
    });
    await refusePatch(path, "message", { body: "edited" }, sms.sid, 422, {
      source: { pointer: "/data/attributes/body" },
    });
    await refusePatch(path, "message", { price: "-1" }, mms.sid, 409, { source: { pointer: "/data/id" } });
    await expectRefused(ctx, () => get("/carrier/v1/messages?filter[message_type]=fax"), 400, {
      source: { parameter: "filter[message_type]" },
    });
    await expectRefused(ctx, () => get("/carrier/v1/messages?filter[created_at]=Feb 3"), 400, {
      source: { parameter: "filter[created_at]" },
    });
    await expectRefused(ctx, () => get("/carrier/v1/messages?filter[body]=hi"), 400, {
      source: { parameter: "filter[body]" },
    });
    await expectRefused(ctx, () => get("/carrier/v1/messages/SM00000000000000000000000000000000"), 404);
  });

  it("lists and fetches TTS events, priced from the TTS rate sheet", async () => {
    const { outbound } = seedCalls();
    const engine = ctx.sandbox.engine;
    const spoken = recordTtsEvent(engine, {
      accountSid: fixtures.acme.sid,
      callSid: outbound.sid,
      voice: "Basic.Kal",
      characters: 125,
      ratedNumber: "+14155550123",
    });
    const free = recordTtsEvent(engine, {
      accountSid: fixtures.globex.sid,
      voice: "Basic.Slt",
      characters: 10,
    });
    const one = await get(`/carrier/v1/tts_events/${spoken.sid}`);
    expect(one.json.data).toMatchObject({
      type: "tts_event",
      attributes: { voice: "Basic.Kal", characters: 125, price: "-0.002000", phone_call_id: outbound.sid },
      relationships: { phone_call: { data: { type: "phone_call", id: outbound.sid } } },
    });
    expect(ids(await get(`/carrier/v1/tts_events?filter[phone_call_id]=${outbound.sid}`))).toEqual([
      spoken.sid,
    ]);
    expect(ids(await get(`/carrier/v1/tts_events?filter[account_id]=${fixtures.globex.sid}`))).toEqual([
      free.sid,
    ]);
    expect(ids(await get("/carrier/v1/tts_events?filter[voice]=Basic.Slt"))).toEqual([free.sid]);
    expect((await get(`/carrier/v1/tts_events/${free.sid}`)).json.data.attributes.price).toBe("0.000000");
    await expectRefused(ctx, () => get("/carrier/v1/tts_events/TT00000000000000000000000000000000"), 404);
    await expectRefused(ctx, () => get("/carrier/v1/tts_events?per_page=abc"), 400, {
      source: { parameter: "per_page" },
    });
  });

  it("serves every state change as an event with the affected resource, filtered and paged", async () => {
    const created = await ctx.call("POST", "/carrier/v1/accounts", {
      auth: carrierAuth,
      json: document("account", { name: "Initech" }),
    });
    const id = created.json.data.id;
    await ctx.call("PATCH", `/carrier/v1/accounts/${id}`, {
      auth: carrierAuth,
      json: document("account", { status: "suspended" }, { id }),
    });
    await ctx.call("DELETE", `/carrier/v1/accounts/${id}`, { auth: carrierAuth });

    const mine = await get(`/carrier/v1/events?filter[account_id]=${id}`);
    expect(
      mine.json.data.map((e: { attributes: { event_type: string } }) => e.attributes.event_type),
    ).toEqual(["account.created", "account.suspended", "account.updated", "account.deleted"]);
    const suspended = mine.json.data[1];
    expect(suspended).toMatchObject({
      type: "event",
      attributes: {
        account_id: id,
        resource_type: "account",
        resource_id: id,
        occurred_at: "2026-01-01T00:00:00Z",
        details: { data: { type: "account", id, attributes: { name: "Initech", status: "suspended" } } },
      },
      relationships: { account: { data: { type: "account", id } } },
    });
    expect(JSON.stringify(mine.json)).not.toContain("auth_token");
    const fetched = await get(`/carrier/v1/events/${suspended.id}`);
    expect(fetched.json.data).toEqual(suspended);

    const paged = await get("/carrier/v1/events?filter[type]=account.created&per_page=1&page=2");
    expect(paged.json.meta).toEqual({ total: 3, page: 2, per_page: 1 });
    expect(paged.json.data[0].attributes.resource_id).toBe(id);
    expect(paged.json.links.first).toBe(
      "/carrier/v1/events?filter%5Btype%5D=account.created&page=0&per_page=1",
    );
    const numbers = await get("/carrier/v1/events?filter[resource_type]=phone_number&per_page=1");
    expect(numbers.json.data[0].attributes.details.data.type).toBe("phone_number");

    await expectRefused(ctx, () => get("/carrier/v1/events/EV00000000000000000000000000000000"), 404);
    await expectRefused(ctx, () => get("/carrier/v1/events?filter[kind]=x"), 400, {
      source: { parameter: "filter[kind]" },
    });
    await expectRefused(ctx, () => get("/carrier/v1/events?per_page=1000"), 400, {
      source: { parameter: "per_page" },
    });
    await expectRefused(ctx, () => ctx.call("GET", "/carrier/v1/events"), 401);
    await expectRefused(
      ctx,
      () => ctx.call("DELETE", `/carrier/v1/events/${suspended.id}`, { auth: carrierAuth }),
      405,
    );
  });
});
