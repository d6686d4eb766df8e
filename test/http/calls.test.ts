// Account API calls through both doors with the twilio client: create, list with filters, fetch, control, delete.
import { describe, expect, it } from "vitest";
import { insertCall } from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures, globexAuth } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/Calls`;
const customer = "+15558675310";

describe.each(doorNames)("calls via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());
  const place = (extra: Record<string, unknown> = {}) =>
    ctx.twilioClient().calls.create({
      to: customer,
      from: fixtures.acme.mainNumber,
      url: "https://app.example.com/voice",
      ...extra,
    });

  it("creates a queued outbound call with Twilio's fields", async () => {
    const call = await place({
      statusCallback: "https://app.example.com/status",
      statusCallbackEvent: ["initiated", "ringing", "answered", "completed"],
      statusCallbackMethod: "GET",
      record: true,
      timeout: 30,
    });
    expect(call.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(call.status).toBe("queued");
    expect(call.direction).toBe("outbound-api");
    expect(call.to).toBe(customer);
    expect(call.toFormatted).toBe("(555) 867-5310");
    expect(call.from).toBe(fixtures.acme.mainNumber);
    expect(call.accountSid).toBe(fixtures.acme.sid);
    expect(call.apiVersion).toBe("2010-04-01");
    expect(call.duration).toBeNull();
    expect(call.price).toBeNull();
    expect(call.startTime).toBeNull();
    expect(call.uri).toBe(`${base}/${call.sid}.json`);
    expect(call.subresourceUris.recordings).toBe(`${base}/${call.sid}/Recordings.json`);
    const stored = ctx.sandbox.store.calls.get(call.sid)!;
    expect(stored).toMatchObject({
      status_callback: "https://app.example.com/status",
      status_callback_method: "GET",
      status_callback_events: ["initiated", "ringing", "answered", "completed"],
      record: true,
      timeout: 30,
    });
  });

  it("takes inline Twiml instead of a Url, and defaults the status events to completed", async () => {
    const call = await ctx.twilioClient().calls.create({
      to: customer,
      from: fixtures.acme.mainNumber,
      twiml: "<Response><Say>Hi</Say></Response>",
    });
    expect(ctx.sandbox.store.calls.get(call.sid)).toMatchObject({
      twiml: "<Response><Say>Hi</Say></Response>",
      url: null,
      status_callback_events: ["completed"],
      timeout: 60,
    });
  });

  it("rejects bad requests with Twilio's codes and changes nothing", async () => {
    const client = ctx.twilioClient();
    const before = stateOf();
    // The twilio client refuses to send a create without To or From, so those go raw.
    const noTo = await ctx.call("POST", `${base}.json`, {
      auth: acmeAuth,
      form: { From: fixtures.acme.mainNumber, Url: "https://a.example.com" },
    });
    expect(noTo.json).toMatchObject({ status: 400, code: 21201, message: "No 'To' number is specified" });
    const noFrom = await ctx.call("POST", `${base}.json`, {
      auth: acmeAuth,
      form: { To: customer, Url: "https://a.example.com" },
    });
    expect(noFrom.json).toMatchObject({ status: 400, code: 21213, message: "No 'From' number is specified" });
    const application = await ctx.call("POST", `${base}.json`, {
      auth: acmeAuth,
      form: { To: customer, From: fixtures.acme.mainNumber, ApplicationSid: `AP${"0".repeat(32)}` },
    });
    expect(application.json).toMatchObject({ status: 400, code: 21218 });
    expect(application.json.message).toMatch(/is not an application of account/);
    const cases: [Record<string, unknown>, number][] = [
      [{ to: "5558675310", from: fixtures.acme.mainNumber, url: "https://a.example.com" }, 21211],
      [{ to: customer, from: "not-a-number", url: "https://a.example.com" }, 21212],
      [{ to: customer, from: fixtures.acme.mainNumber }, 21205],
      [{ to: customer, from: fixtures.acme.mainNumber, url: "not a url" }, 21205],
      [{ to: customer, from: "+14155550101", url: "https://a.example.com" }, 21210],
      [{ to: customer, from: fixtures.acme.mainNumber, url: "https://a.example.com", method: "PUT" }, 21209],
      [
        {
          to: customer,
          from: fixtures.acme.mainNumber,
          url: "https://a.example.com",
          statusCallbackEvent: ["hangup"],
        },
        21626,
      ],
    ];
    for (const [params, code] of cases) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately invalid parameters.
      await expect(client.calls.create(params as any)).rejects.toMatchObject({ status: 400, code });
    }
    expect(stateOf()).toBe(before);
  });

  it("caps Timeout at 600 seconds", async () => {
    const call = await place({ timeout: 3600 });
    expect(ctx.sandbox.store.calls.get(call.sid)!.timeout).toBe(600);
  });

  it("lists newest first, filters by To, From, Status and ParentCallSid, and pages with each() and page()", async () => {
    const client = ctx.twilioClient();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await place({ to: `+1555867531${i}` }));
    const parent = insertCall(ctx.sandbox, { status: "completed" });
    insertCall(ctx.sandbox, { parent_call_sid: parent.sid, direction: "outbound-dial", status: "busy" });

    const all = await client.calls.list();
    expect(all).toHaveLength(7);
    expect(all[all.length - 1]!.sid).toBe(created[0]!.sid);

    const seen: string[] = [];
    await client.calls.each({ pageSize: 2 }, (call) => {
      seen.push(call.sid);
    });
    expect(seen).toEqual(all.map((c) => c.sid));

    const first = await client.calls.page({ pageSize: 3 });
    expect(first.instances).toHaveLength(3);
    const second = await first.nextPage();
    expect(second!.instances.map((c) => c.sid)).toEqual(all.slice(3, 6).map((c) => c.sid));

    expect((await client.calls.list({ to: "+15558675312" })).map((c) => c.sid)).toEqual([created[2]!.sid]);
    expect(await client.calls.list({ status: "queued" })).toHaveLength(5);
    expect(await client.calls.list({ status: "busy" })).toHaveLength(1);
    expect(await client.calls.list({ parentCallSid: parent.sid })).toHaveLength(1);
    expect(await client.calls.list({ from: "+19999999999" })).toHaveLength(0);
    expect(await client.calls.list({ startTimeAfter: new Date("2025-12-31T00:00:00Z") })).toHaveLength(7);
    expect(await client.calls.list({ startTimeBefore: new Date("2025-12-31T00:00:00Z") })).toHaveLength(0);
  });

  it("fetches a call, and answers 404 (20404) for an unknown or another account's call", async () => {
    const call = await place();
    const fetched = await ctx.twilioClient().calls(call.sid).fetch();
    expect(fetched.sid).toBe(call.sid);
    const noJson = await ctx.call("GET", `${base}/${call.sid}`, { auth: acmeAuth });
    expect(noJson.json.sid).toBe(call.sid);
    await expect(
      ctx.twilioClient().calls("CA00000000000000000000000000000000").fetch(),
    ).rejects.toMatchObject({ status: 404, code: 20404 });
    const other = await ctx.call(
      "GET",
      `/2010-04-01/Accounts/${fixtures.globex.sid}/Calls/${call.sid}.json`,
      { auth: globexAuth },
    );
    expect(other.status).toBe(404);
    expect(other.json.code).toBe(20404);
  });

  it("cancels a queued call, and leaves a finished call alone", async () => {
    const call = await place();
    const canceled = await ctx.twilioClient().calls(call.sid).update({ status: "canceled" });
    expect(canceled.status).toBe("canceled");
    expect(canceled.endTime).not.toBeNull();
    expect(canceled.duration).toBe("0");
    const done = insertCall(ctx.sandbox, { status: "completed" });
    const untouched = await ctx.twilioClient().calls(done.sid).update({ status: "canceled" });
    expect(untouched.status).toBe("completed");
  });

  it("hangs up an answered call with Status=completed, counting the duration from answer", async () => {
    const now = ctx.sandbox.clock.now();
    const live = insertCall(ctx.sandbox, {
      status: "in-progress",
      answered_at: now - 30_000,
      end_time: null,
      duration: null,
      price: null,
    });
    const ended = await ctx.twilioClient().calls(live.sid).update({ status: "completed" });
    expect(ended.status).toBe("completed");
    expect(ended.duration).toBe("30");
  });

  it("redirects a live call with Url or Twiml, and refuses a finished one with 21220", async () => {
    const call = await place();
    await ctx.twilioClient().calls(call.sid).update({ url: "https://app.example.com/next", method: "GET" });
    expect(ctx.sandbox.store.calls.get(call.sid)).toMatchObject({
      url: "https://app.example.com/next",
      method: "GET",
    });
    await ctx.twilioClient().calls(call.sid).update({ twiml: "<Response><Hangup/></Response>" });
    expect(ctx.sandbox.store.calls.get(call.sid)).toMatchObject({
      twiml: "<Response><Hangup/></Response>",
      url: null,
    });

    const done = insertCall(ctx.sandbox);
    const before = stateOf();
    await expect(
      ctx.twilioClient().calls(done.sid).update({ url: "https://app.example.com/next" }),
    ).rejects.toMatchObject({ status: 400, code: 21220 });
    await expect(
      ctx
        .twilioClient()
        .calls(call.sid)
        .update({ status: "ringing" as never }),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect(stateOf()).toBe(before);
  });

  it("deletes a finished call (204) and refuses a live one with 20009", async () => {
    const done = insertCall(ctx.sandbox);
    expect(await ctx.twilioClient().calls(done.sid).remove()).toBe(true);
    expect(ctx.sandbox.store.calls.get(done.sid)).toBeUndefined();

    const live = await place();
    const before = stateOf();
    await expect(ctx.twilioClient().calls(live.sid).remove()).rejects.toMatchObject({ code: 20009 });
    expect(stateOf()).toBe(before);
  });

  it("refuses another account's path (403), a missing scope (403), a suspended account (403 20005) and bad credentials (401)", async () => {
    const before = stateOf();
    const globexPath = `/2010-04-01/Accounts/${fixtures.globex.sid}/Calls.json`;
    const form = { To: customer, From: fixtures.acme.mainNumber, Url: "https://a.example.com" };
    expect((await ctx.call("POST", globexPath, { auth: acmeAuth, form })).json.code).toBe(20003);
    const readOnly = ctx.twilioClient(fixtures.acme.readKey.sid, fixtures.acme.readKey.key);
    await expect(
      readOnly.calls.create({ to: customer, from: fixtures.acme.mainNumber, url: "https://a.example.com" }),
    ).rejects.toMatchObject({ status: 403 });
    const bad = await ctx.call("POST", `${base}.json`, {
      auth: { basic: [fixtures.acme.sid, "wrong"] },
      form,
    });
    expect(bad.status).toBe(401);
    expect(stateOf()).toBe(before);

    await ctx.call("PATCH", `/carrier/v1/accounts/${fixtures.acme.sid}`, {
      auth: { bearer: fixtures.carrierKey },
      json: { data: { type: "account", id: fixtures.acme.sid, attributes: { status: "suspended" } } },
    });
    const suspended = stateOf();
    await expect(place()).rejects.toMatchObject({ status: 403, code: 20005 });
    expect(stateOf()).toBe(suspended);
  });
});
