// Twilio test credentials through both doors with the twilio client: the three creates, magic numbers, 403 elsewhere, nothing kept.
import { describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const test = fixtures.acme.test;
const testAuth = { basic: [test.sid, test.authToken] as [string, string] };
const magicFrom = "+15005550006";
const customer = "+15558675310";

/** The RestException a twilio call rejects with (status, code), or the value when it resolves. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ status: 201, code: null }),
    (error: { status: number; code: number }) => ({ status: error.status, code: error.code }),
  );

describe.each(doorNames)("test credentials via %s", (door) => {
  const ctx = useDoor(door);
  const client = () => ctx.twilioClient(test.sid, test.authToken);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());

  /** Runs `request`, then checks it left the whole state as it was, even after five minutes of sandbox time. */
  const changesNothing = async <T>(request: () => Promise<T>): Promise<T> => {
    const before = stateOf();
    const storeBefore = JSON.stringify(ctx.sandbox.snapshot().store);
    const result = await request();
    expect(stateOf()).toBe(before);
    await ctx.sandbox.clock.advance(300_000);
    await ctx.sandbox.webhooks.idle();
    expect(JSON.stringify(ctx.sandbox.snapshot().store)).toBe(storeBefore);
    expect(ctx.sandbox.webhooks.deliveries).toEqual([]);
    return result;
  };

  it("sends a message from +15005550006: 201, queued, under the test sid, with no callback and nothing kept", async () => {
    const message = await changesNothing(() =>
      client().messages.create({
        from: magicFrom,
        to: customer,
        body: "Hello",
        statusCallback: "https://app.example.com/sms-status",
      }),
    );
    expect(message.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(message.status).toBe("queued");
    expect(message.accountSid).toBe(test.sid);
    expect(message.from).toBe(magicFrom);
    expect(message.to).toBe(customer);
    expect(message.numSegments).toBe("1");
    expect(message.numMedia).toBe("0");
    expect(message.uri).toBe(`/2010-04-01/Accounts/${test.sid}/Messages/${message.sid}.json`);
    expect(ctx.sandbox.store.messages.get(message.sid)).toBeUndefined();
  });

  it.each([
    ["+15005550001", 21212],
    ["+15005550007", 21606],
    ["+15005550008", 21611],
    [fixtures.acme.mainNumber, 21606],
  ])("answers a message From %s with %i", async (from, code) => {
    const result = await changesNothing(() =>
      outcome(client().messages.create({ from, to: customer, body: "Hello" })),
    );
    expect(result).toEqual({ status: 400, code });
  });

  it.each([
    ["+15005550001", 21211],
    ["+15005550002", 21612],
    ["+15005550003", 21408],
    ["+15005550004", 21610],
    ["+15005550009", 21614],
  ])("answers a message To %s with %i", async (to, code) => {
    const result = await changesNothing(() =>
      outcome(client().messages.create({ from: magicFrom, to, body: "Hello" })),
    );
    expect(result).toEqual({ status: 400, code });
  });

  it("validates a test message as a live one first: no Body is 21602, a bad To 21211", async () => {
    expect(
      await changesNothing(() => outcome(client().messages.create({ from: magicFrom, to: customer }))),
    ).toEqual({ status: 400, code: 21602 });
    expect(
      await changesNothing(() => outcome(client().messages.create({ from: magicFrom, to: "12", body: "x" }))),
    ).toEqual({ status: 400, code: 21211 });
  });

  it("places a call from +15005550006: 201, queued, never run, with no callback", async () => {
    const call = await changesNothing(() =>
      client().calls.create({
        from: magicFrom,
        to: customer,
        url: "https://app.example.com/voice",
        statusCallback: "https://app.example.com/status",
        statusCallbackEvent: ["initiated", "ringing", "answered", "completed"],
      }),
    );
    expect(call.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(call.status).toBe("queued");
    expect(call.accountSid).toBe(test.sid);
    expect(call.fromFormatted).toBe("(500) 555-0006");
    expect(call.direction).toBe("outbound-api");
    expect(ctx.sandbox.store.calls.get(call.sid)).toBeUndefined();
  });

  it.each([
    ["+15005550001", 21212],
    [fixtures.acme.mainNumber, 21210],
    ["+15005550007", 21210],
  ])("answers a call From %s with %i", async (from, code) => {
    const result = await changesNothing(() =>
      outcome(client().calls.create({ from, to: customer, url: "https://app.example.com/voice" })),
    );
    expect(result).toEqual({ status: 400, code });
  });

  it.each([
    ["+15005550001", 21217],
    ["+15005550002", 21214],
    ["+15005550003", 21215],
    ["+15005550004", 21216],
  ])("answers a call To %s with %i", async (to, code) => {
    const result = await changesNothing(() =>
      outcome(client().calls.create({ from: magicFrom, to, url: "https://app.example.com/voice" })),
    );
    expect(result).toEqual({ status: 400, code });
  });

  it("validates a test call as a live one first: no Url or Twiml is 21205", async () => {
    expect(
      await changesNothing(() => outcome(client().calls.create({ from: magicFrom, to: customer }))),
    ).toEqual({
      status: 400,
      code: 21205,
    });
  });

  it("buys +15005550006 by PhoneNumber or AreaCode 500, with the handlers given, provisioning nothing", async () => {
    const byNumber = await changesNothing(() =>
      client().incomingPhoneNumbers.create({
        phoneNumber: "+15005550006",
        voiceUrl: "https://app.example.com/voice",
      }),
    );
    expect(byNumber.sid).toMatch(/^PN[0-9a-f]{32}$/);
    expect(byNumber.phoneNumber).toBe("+15005550006");
    expect(byNumber.friendlyName).toBe("(500) 555-0006");
    expect(byNumber.voiceUrl).toBe("https://app.example.com/voice");
    expect(byNumber.accountSid).toBe(test.sid);
    const byAreaCode = await changesNothing(() => client().incomingPhoneNumbers.create({ areaCode: "500" }));
    expect(byAreaCode.phoneNumber).toBe("+15005550006");
    expect(ctx.sandbox.store.phoneNumbers.findOne("number", "+15005550006")).toBeUndefined();
  });

  it.each([
    [{ phoneNumber: "+15005550000" }, 21422],
    [{ phoneNumber: "+15005550001" }, 21421],
    [{ phoneNumber: fixtures.available.us }, 21422],
    [{ areaCode: "533" }, 21452],
    [{ areaCode: "415" }, 21452],
    [{}, 21421],
  ])("answers a number purchase %j with %i", async (params, code) => {
    const result = await changesNothing(() => outcome(client().incomingPhoneNumbers.create(params)));
    expect(result).toEqual({ status: 400, code });
  });

  it("answers every other route 403 with code 20008: lists, fetches, updates", async () => {
    for (const request of [
      () => client().messages.list(),
      () => client().calls.list(),
      () => client().incomingPhoneNumbers.list(),
      () => client().recordings.list(),
      () => client().calls("CA00000000000000000000000000000001").fetch(),
      () => client().messages("SM00000000000000000000000000000001").update({ body: "" }),
    ]) {
      expect(await changesNothing(() => outcome(request()))).toEqual({ status: 403, code: 20008 });
    }
  });

  it("acts only on the test Account SID's path, and not on the carrier API", async () => {
    const live = await ctx.call("POST", `/2010-04-01/Accounts/${fixtures.acme.sid}/Messages.json`, {
      auth: testAuth,
      form: { From: magicFrom, To: customer, Body: "Hello" },
    });
    expect([live.status, live.json.code]).toEqual([403, 20003]);
    const carrier = await ctx.call("GET", "/carrier/v1/accounts", { auth: testAuth });
    expect(carrier.status).toBe(403);
    // The live sid with the test token, or the test sid with the live token, is not a credential.
    const mixed = await ctx.call("GET", `/2010-04-01/Accounts/${test.sid}/Messages.json`, {
      auth: { basic: [test.sid, fixtures.acme.authToken] },
    });
    expect(mixed.status).toBe(401);
    const crossed = await ctx.call("GET", `/2010-04-01/Accounts/${fixtures.acme.sid}/Messages.json`, {
      auth: { basic: [fixtures.acme.sid, test.authToken] },
    });
    expect(crossed.status).toBe(401);
  });

  it("shares the live account's suspension (20005)", async () => {
    await ctx.call("PATCH", `/carrier/v1/accounts/${fixtures.acme.sid}`, {
      auth: { bearer: fixtures.carrierKey },
      headers: { "content-type": "application/vnd.api+json" },
      json: { data: { type: "account", id: fixtures.acme.sid, attributes: { status: "suspended" } } },
    });
    const result = await outcome(client().messages.create({ from: magicFrom, to: customer, body: "Hello" }));
    expect(result).toEqual({ status: 403, code: 20005 });
  });

  it("leaves live credentials as they were: the live account still sends from its own number", async () => {
    const live = ctx.twilioClient(...acmeAuth.basic);
    const message = await live.messages.create({ from: fixtures.acme.mainNumber, to: customer, body: "Hi" });
    expect(message.accountSid).toBe(fixtures.acme.sid);
  });
});

describe("test credentials of accounts without fixed ones", () => {
  it("are derived, shown by the admin credentials route, and work on the test sid's path", async () => {
    const sandbox = createSandbox({ fixtures: { carrier: { api_key: fixtures.carrierKey } } });
    const account = sandbox.store.accounts.all()[0];
    expect(account).toBeUndefined();
    const created = await sandbox.handle({
      method: "POST",
      path: "/carrier/v1/accounts",
      query: "",
      headers: { authorization: `Bearer ${fixtures.carrierKey}`, "content-type": "application/vnd.api+json" },
      body: JSON.stringify({ data: { type: "account", attributes: { name: "Initech" } } }),
    });
    const sid = JSON.parse(String(created.body)).data.id as string;
    const shown = await sandbox.handle({
      method: "GET",
      path: `/__sandbox/accounts/${sid}/credentials`,
      query: "",
      headers: {},
      body: "",
    });
    const credentials = JSON.parse(String(shown.body));
    expect(credentials.test_account_sid).toMatch(/^AC[0-9a-f]{32}$/);
    expect(credentials.test_account_sid).not.toBe(sid);
    expect(credentials.test_auth_token).toMatch(/^[0-9a-f]{32}$/);
    expect(credentials.test_auth_token).not.toBe(credentials.auth_token);
    const basic = Buffer.from(`${credentials.test_account_sid}:${credentials.test_auth_token}`).toString(
      "base64",
    );
    const sent = await sandbox.handle({
      method: "POST",
      path: `/2010-04-01/Accounts/${credentials.test_account_sid}/Messages.json`,
      query: "",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: "From=%2B15005550006&To=%2B15558675310&Body=Hi",
    });
    expect(sent.status).toBe(201);
  });

  it("load from a snapshot taken before they existed, with the values a fresh account gets", () => {
    const sandbox = createSandbox();
    const snapshot = sandbox.snapshot();
    const acme = sandbox.store.accounts.get(fixtures.acme.sid)!;
    const old = structuredClone(snapshot);
    for (const account of old.store.accounts as Record<string, unknown>[]) {
      delete account.test_account_sid;
      delete account.test_auth_token;
    }
    sandbox.restore(old);
    const restored = sandbox.store.accounts.get(fixtures.acme.sid)!;
    expect(restored.test_account_sid).toMatch(/^AC[0-9a-f]{32}$/);
    expect(restored.test_account_sid).not.toBe(acme.test_account_sid); // the fixture fixes Acme's; old snapshots derive
    expect(sandbox.store.accounts.findOne("testSid", restored.test_account_sid)?.sid).toBe(fixtures.acme.sid);
  });
});
