// Account API incoming phone numbers, driven by the official twilio client through both doors.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures, globexAuth } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers`;

describe.each(doorNames)("incoming phone numbers via %s", (door) => {
  const ctx = useDoor(door);
  /** The twilio client acting as the carrier administrator on Acme's account. */
  const asCarrier = () => ctx.twilioClient(fixtures.acme.sid, fixtures.carrierKey);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());

  it("lists the number's one subresource, its assigned add-ons: served, and none (add-ons are not emulated)", async () => {
    const client = ctx.twilioClient();
    const [number] = await client.incomingPhoneNumbers.list({ phoneNumber: fixtures.acme.mainNumber });
    const resource = await ctx.call("GET", `${base}/${number!.sid}.json`, { auth: acmeAuth });
    expect(resource.json.subresource_uris).toEqual({
      assigned_add_ons: `${base}/${number!.sid}/AssignedAddOns.json`,
    });
    expect(await client.incomingPhoneNumbers(number!.sid).assignedAddOns.list()).toEqual([]);
    const missing = await client
      .incomingPhoneNumbers(number!.sid)
      .assignedAddOns("XE00000000000000000000000000000000")
      .fetch()
      .catch((e: { status: number; code: number }) => [e.status, e.code]);
    expect(missing).toEqual([404, 20404]);
    const otherAccount = await ctx.call(
      "GET",
      `${base}/${number!.sid}/AssignedAddOns.json`.replace(fixtures.acme.sid, fixtures.globex.sid),
      {
        auth: globexAuth,
      },
    );
    expect([otherAccount.status, otherAccount.json.code]).toEqual([404, 20404]);
    const unknown = await ctx.call("GET", `${base}/PN00000000000000000000000000000000/AssignedAddOns.json`, {
      auth: acmeAuth,
    });
    expect(unknown.status).toBe(404);
    const badPage = await ctx.call("GET", `${base}/${number!.sid}/AssignedAddOns.json?PageSize=0`, {
      auth: acmeAuth,
    });
    expect(badPage.status).toBe(400);
    const assign = await ctx.call("POST", `${base}/${number!.sid}/AssignedAddOns.json`, {
      auth: acmeAuth,
      form: { InstalledAddOnSid: "XE00000000000000000000000000000000" },
    });
    expect([assign.status, assign.json.code]).toEqual([405, 20004]);
  });

  it("lets the carrier administrator provision an inventory number to an account", async () => {
    const number = await asCarrier().incomingPhoneNumbers.create({
      phoneNumber: fixtures.available.us,
      friendlyName: "Support line",
      voiceUrl: "https://app.example.com/voice",
      smsUrl: "https://app.example.com/sms",
      statusCallback: "https://app.example.com/status",
    });
    expect(number.sid).toMatch(/^PN[0-9a-f]{32}$/);
    expect(number.accountSid).toBe(fixtures.acme.sid);
    expect(number.phoneNumber).toBe(fixtures.available.us);
    expect(number.friendlyName).toBe("Support line");
    expect(number.voiceUrl).toBe("https://app.example.com/voice");
    expect(number.voiceMethod).toBe("POST");
    expect(number.smsUrl).toBe("https://app.example.com/sms");
    expect(number.statusCallback).toBe("https://app.example.com/status");
    expect(number.status).toBe("active");
    expect(number.uri).toBe(`${base}/${number.sid}.json`);

    const carrierView = await ctx.call("GET", `/carrier/v1/phone_numbers/${number.sid}`, {
      auth: carrierAuth,
    });
    expect(carrierView.json.data.attributes).toMatchObject({
      status: "assigned",
      account_id: fixtures.acme.sid,
    });
  });

  it("refuses provisioning with the account's own credentials (403) and changes nothing", async () => {
    const before = stateOf();
    const error = await ctx
      .twilioClient()
      .incomingPhoneNumbers.create({ phoneNumber: fixtures.available.us })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: 20003 });
    expect((error as Error).message).toMatch(/carrier/);
    expect(stateOf()).toBe(before);
  });

  it("rejects numbers that are invalid, not in the inventory, or already assigned", async () => {
    const client = asCarrier();
    await expect(client.incomingPhoneNumbers.create({ phoneNumber: "4155550101" })).rejects.toMatchObject({
      status: 400,
      code: 21421,
    });
    await expect(client.incomingPhoneNumbers.create({ phoneNumber: "+14155559999" })).rejects.toMatchObject({
      status: 400,
      code: 21422,
    });
    await expect(
      client.incomingPhoneNumbers.create({ phoneNumber: fixtures.acme.mainNumber }),
    ).rejects.toMatchObject({
      status: 400,
      code: 21422,
    });
    await expect(client.incomingPhoneNumbers.create({})).rejects.toMatchObject({ status: 400, code: 21421 });
  });

  it("provisions by AreaCode from the available inventory", async () => {
    const number = await asCarrier().incomingPhoneNumbers.create({ areaCode: "212" });
    expect(number.phoneNumber).toBe(fixtures.available.ny);
    await expect(asCarrier().incomingPhoneNumbers.create({ areaCode: "999" })).rejects.toMatchObject({
      code: 21452,
    });
  });

  it("lists, pages and filters the account's numbers", async () => {
    const carrier = asCarrier();
    await carrier.incomingPhoneNumbers.create({ phoneNumber: fixtures.available.us });
    await carrier.incomingPhoneNumbers.create({ phoneNumber: fixtures.available.us2 });
    const client = ctx.twilioClient();

    const all = await client.incomingPhoneNumbers.list();
    expect(all.map((n) => n.phoneNumber)).toEqual([
      fixtures.acme.mainNumber,
      fixtures.available.us,
      fixtures.available.us2,
    ]);

    const seen: string[] = [];
    await client.incomingPhoneNumbers.each({ pageSize: 1 }, (n) => {
      seen.push(n.phoneNumber);
    });
    expect(seen).toEqual(all.map((n) => n.phoneNumber));

    const first = await client.incomingPhoneNumbers.page({ pageSize: 2 });
    expect(first.instances).toHaveLength(2);
    const second = await first.nextPage();
    expect(second?.instances.map((n) => n.phoneNumber)).toEqual([fixtures.available.us2]);
    expect(await second?.nextPage()).toBeUndefined();

    const filtered = await client.incomingPhoneNumbers.list({ phoneNumber: "555010*" });
    expect(filtered.map((n) => n.phoneNumber)).toEqual(all.map((n) => n.phoneNumber));
    expect(await client.incomingPhoneNumbers.list({ phoneNumber: "2125" })).toEqual([]);
  });

  it("answers Twilio's list envelope with relative page URIs", async () => {
    const res = await ctx.call("GET", `${base}.json?PageSize=1&Page=0`, { auth: acmeAuth });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      page: 0,
      page_size: 1,
      start: 0,
      end: 0,
      first_page_uri: `${base}.json?PageSize=1&Page=0`,
      uri: `${base}.json?PageSize=1&Page=0`,
      next_page_uri: null,
      previous_page_uri: null,
    });
    expect(res.json.incoming_phone_numbers).toHaveLength(1);
    const clamped = await ctx.call("GET", `${base}.json?PageSize=5000`, { auth: acmeAuth });
    expect(clamped.json.page_size).toBe(1000);
    const bad = await ctx.call("GET", `${base}.json?Page=-1`, { auth: acmeAuth });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ status: 400, message: expect.stringContaining("Page") });
  });

  it("fetches and updates handlers, with and without the .json suffix", async () => {
    const [main] = await ctx.twilioClient().incomingPhoneNumbers.list();
    const fetched = await ctx.twilioClient().incomingPhoneNumbers(main!.sid).fetch();
    expect(fetched.phoneNumber).toBe(fixtures.acme.mainNumber);

    const updated = await ctx.twilioClient().incomingPhoneNumbers(main!.sid).update({
      voiceUrl: "https://app.example.com/ivr",
      voiceMethod: "GET",
      smsUrl: "https://app.example.com/sms",
    });
    expect(updated.voiceUrl).toBe("https://app.example.com/ivr");
    expect(updated.voiceMethod).toBe("GET");

    const plain = await ctx.call("GET", `${base}/${main!.sid}`, { auth: acmeAuth });
    expect(plain.status).toBe(200);
    expect(plain.json.voice_url).toBe("https://app.example.com/ivr");

    const spec = await ctx.call("POST", `${base}/${main!.sid}.json`, {
      auth: acmeAuth,
      form: { StatusCallbackUrl: "https://app.example.com/cb" },
    });
    expect(spec.json).toMatchObject({
      status_callback: "https://app.example.com/cb",
      status_callback_url: "https://app.example.com/cb",
    });
  });

  it("rejects bad handler parameters with 400 and leaves the number as it was", async () => {
    const [main] = await ctx.twilioClient().incomingPhoneNumbers.list();
    const before = stateOf();
    const bad: Record<string, string>[] = [
      { VoiceUrl: "not a url" },
      { VoiceMethod: "PUT" },
      { FriendlyName: "x".repeat(65) },
    ];
    for (const form of bad) {
      const res = await ctx.call("POST", `${base}/${main!.sid}.json`, { auth: acmeAuth, form });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(new RegExp(Object.keys(form)[0]!));
    }
    const json = await ctx.call("POST", `${base}/${main!.sid}.json`, {
      auth: acmeAuth,
      body: '{"VoiceUrl":"https://x.example.com"}',
      headers: { "content-type": "application/json" },
    });
    expect(json.status).toBe(415);
    expect(stateOf()).toBe(before);
  });

  it("releases a number with 204, back to the carrier inventory", async () => {
    const [main] = await ctx.twilioClient().incomingPhoneNumbers.list();
    expect(await ctx.twilioClient().incomingPhoneNumbers(main!.sid).remove()).toBe(true);
    await expect(ctx.twilioClient().incomingPhoneNumbers(main!.sid).fetch()).rejects.toMatchObject({
      status: 404,
      code: 20404,
    });
    const carrierView = await ctx.call("GET", `/carrier/v1/phone_numbers/${main!.sid}`, {
      auth: carrierAuth,
    });
    expect(carrierView.json.data.attributes).toMatchObject({ status: "available", account_id: null });
    const raw = await ctx.call("DELETE", `${base}/${main!.sid}.json`, { auth: acmeAuth });
    expect(raw.status).toBe(404);
  });

  describe("authentication and authorization", () => {
    it("answers 401 with Twilio's body and a Basic challenge when credentials are missing or wrong", async () => {
      const none = await ctx.call("GET", `${base}.json`);
      expect(none.status).toBe(401);
      expect(none.headers.get("www-authenticate")).toMatch(/^Basic/);
      expect(none.json).toMatchObject({
        code: 20003,
        status: 401,
        more_info: "https://www.twilio.com/docs/errors/20003",
      });
      const wrong = await ctx.call("GET", `${base}.json`, {
        auth: { basic: [fixtures.acme.sid, "wrong-token"] },
      });
      expect(wrong.status).toBe(401);
      await expect(
        ctx.twilioClient(fixtures.acme.sid, "bad").incomingPhoneNumbers.list(),
      ).rejects.toMatchObject({
        status: 401,
        code: 20003,
      });
    });

    it("answers 403 when one account's credentials act on another account", async () => {
      const res = await ctx.call("GET", `${base}.json`, { auth: globexAuth });
      expect(res.status).toBe(403);
      expect(res.json.code).toBe(20003);
    });

    it("applies API key scopes: read keys read, write needs the write scope", async () => {
      const read = { bearer: fixtures.acme.readKey.key };
      expect((await ctx.call("GET", `${base}.json`, { auth: read })).status).toBe(200);
      const [main] = (await ctx.call("GET", `${base}.json`, { auth: read })).json.incoming_phone_numbers;
      const write = await ctx.call("POST", `${base}/${main.sid}.json`, {
        auth: read,
        form: { FriendlyName: "x" },
      });
      expect(write.status).toBe(403);
      expect(write.json.message).toMatch(/incoming_phone_numbers_write/);
      const full = await ctx.call("POST", `${base}/${main.sid}.json`, {
        auth: { bearer: fixtures.acme.fullKey.key },
        form: { FriendlyName: "x" },
      });
      expect(full.status).toBe(200);
      const messagesOnly = await ctx.call(
        "GET",
        `/2010-04-01/Accounts/${fixtures.globex.sid}/IncomingPhoneNumbers.json`,
        {
          auth: { bearer: fixtures.globex.messagesKey.key },
        },
      );
      expect(messagesOnly.status).toBe(403);
      // Twilio-style key credentials (Basic SK...:secret) work as well.
      const client = ctx.twilioClient(fixtures.acme.readKey.sid, fixtures.acme.readKey.key);
      expect((await client.incomingPhoneNumbers.list()).length).toBe(1);
    });

    it("refuses a suspended account's credentials with 403 and keeps its records", async () => {
      await ctx.call("PATCH", `/carrier/v1/accounts/${fixtures.acme.sid}`, {
        auth: carrierAuth,
        json: { data: { type: "account", id: fixtures.acme.sid, attributes: { status: "suspended" } } },
      });
      const res = await ctx.call("GET", `${base}.json`, { auth: acmeAuth });
      expect(res.status).toBe(403);
      expect(res.json.code).toBe(20005);
      const carrierView = await ctx.call("GET", `${base}.json`, {
        auth: { basic: [fixtures.acme.sid, fixtures.carrierKey] },
      });
      expect(carrierView.json.incoming_phone_numbers).toHaveLength(1);
    });

    it("answers 404 with 20404 for unknown numbers, unknown paths and other accounts' numbers", async () => {
      const unknown = await ctx.call("GET", `${base}/PN00000000000000000000000000000000.json`, {
        auth: acmeAuth,
      });
      expect(unknown.status).toBe(404);
      expect(unknown.json).toEqual({
        code: 20404,
        message: `The requested resource ${base}/PN00000000000000000000000000000000.json was not found`,
        more_info: "https://www.twilio.com/docs/errors/20404",
        status: 404,
      });
      const [main] = (await ctx.call("GET", `${base}.json`, { auth: acmeAuth })).json.incoming_phone_numbers;
      const globexPath = `/2010-04-01/Accounts/${fixtures.globex.sid}/IncomingPhoneNumbers/${main.sid}.json`;
      expect((await ctx.call("GET", globexPath, { auth: globexAuth })).status).toBe(404);
      expect(
        (await ctx.call("GET", `/2010-04-01/Accounts/${fixtures.acme.sid}/Nope.json`, { auth: acmeAuth }))
          .status,
      ).toBe(404);
    });

    it("answers 405 for a method the resource does not have", async () => {
      const res = await ctx.call("PUT", `${base}.json`, { auth: acmeAuth });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST, GET");
    });

    it("refuses bodies over 1 MiB with 413", async () => {
      const res = await ctx.call("POST", `${base}.json`, {
        auth: { basic: [fixtures.acme.sid, fixtures.carrierKey] },
        form: { FriendlyName: "x".repeat(1024 * 1024 + 1) },
      });
      expect(res.status).toBe(413);
      expect(res.json.status).toBe(413);
    });
  });

  it("serves Twilio's typed lists and creates: Local, TollFree and Mobile", async () => {
    const carrier = asCarrier().incomingPhoneNumbers;
    const tollFree = await carrier.tollFree.create({ phoneNumber: fixtures.available.tollFree });
    expect(tollFree.phoneNumber).toBe(fixtures.available.tollFree);
    const local = await carrier.local.create({ phoneNumber: fixtures.available.us2 });
    // AreaCode picks an available number of the list's type.
    const byArea = await ctx.call("POST", `${base}/Local.json`, {
      auth: carrierAuth,
      form: { AreaCode: "212" },
    });
    expect([byArea.status, byArea.json.phone_number]).toEqual([201, fixtures.available.ny]);
    const noTollFree = await ctx.call("POST", `${base}/TollFree.json`, {
      auth: carrierAuth,
      form: { AreaCode: "415" },
    });
    expect([noTollFree.status, noTollFree.json.code]).toEqual([400, 21452]);
    const mobile = await carrier.mobile.create({ phoneNumber: "+447700900123" });
    const client = ctx.twilioClient().incomingPhoneNumbers;
    expect((await client.tollFree.list()).map((n) => n.phoneNumber)).toEqual([fixtures.available.tollFree]);
    expect((await client.mobile.list()).map((n) => n.phoneNumber)).toEqual([mobile.phoneNumber]);
    const locals = (await client.local.list()).map((n) => n.phoneNumber);
    expect(locals).toContain(local.phoneNumber);
    expect(locals).toContain(fixtures.acme.mainNumber);
    expect(locals).not.toContain(fixtures.available.tollFree);
    expect((await client.local.list({ phoneNumber: local.phoneNumber })).length).toBe(1);
    const page = await ctx.call("GET", `${base}/Local.json?PageSize=1`, { auth: acmeAuth });
    expect(page.json.uri).toBe(`${base}/Local.json?PageSize=1&Page=0`);

    // A number of another type is refused on a typed create, and nothing changes.
    expect((await carrier.local.create({ phoneNumber: fixtures.available.gb })).phoneNumber).toBe(
      fixtures.available.gb,
    );
    const before = stateOf();
    await expect(carrier.tollFree.create({ phoneNumber: fixtures.available.us })).rejects.toMatchObject({
      status: 400,
      code: 21422,
    });
    expect(stateOf()).toBe(before);
    // Test credentials buy numbers on the untyped create only.
    const test = ctx.twilioClient(fixtures.acme.test.sid, fixtures.acme.test.authToken);
    await expect(
      test.incomingPhoneNumbers.local.create({ phoneNumber: "+15005550006" }),
    ).rejects.toMatchObject({
      status: 403,
      code: 20008,
    });
  });
});
