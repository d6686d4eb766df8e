// Accounts through both doors with the twilio client: fetch, update, list, subaccounts, Balance and Usage Records.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { billCall } from "../../src/engine/billing/billing.js";
import { topUp } from "../../src/engine/billing/ledger.js";
import { accountResource } from "../../src/http/account-api/accounts.js";
import { balanceResource, usageRecordResource } from "../../src/http/account-api/usage-records.js";
import { insertCall } from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures, globexAuth } from "../support/fixtures.js";
import { expectTwilioShape, type TwilioProperty } from "../support/twilio-shape.js";
import twilioShapes from "../support/twilio-shapes.json" with { type: "json" };

const shapes = twilioShapes.resources as Record<string, { properties: Record<string, TwilioProperty> }>;
const shape = (name: string) => ({ name, properties: shapes[name]!.properties });
const day = 86_400_000;

describe.each(doorNames)("accounts via %s", (door) => {
  const ctx = useDoor(door);
  /** The parent's credentials acting on another account's path (the twilio package's `accountSid` option). */
  const parentOn = (accountSid: string) => {
    const client = twilio(fixtures.acme.sid, fixtures.acme.authToken, { accountSid });
    client.api.baseUrl = ctx.baseUrl;
    return client;
  };

  it("fetches the account of the credentials with Twilio's fields, as apps do to check them", async () => {
    const account = await ctx.twilioClient().api.v2010.accounts(fixtures.acme.sid).fetch();
    expect(account).toMatchObject({
      sid: fixtures.acme.sid,
      authToken: fixtures.acme.authToken,
      ownerAccountSid: fixtures.acme.sid,
      status: "active",
      type: "Full",
      uri: `/2010-04-01/Accounts/${fixtures.acme.sid}.json`,
    });
    const raw = await ctx.call("GET", `/2010-04-01/Accounts/${fixtures.acme.sid}.json`, { auth: acmeAuth });
    expectTwilioShape(raw.json, accountResource, shape("account"));
    // Every collection the account advertises is served.
    for (const uri of Object.values(raw.json.subresource_uris) as string[]) {
      expect((await ctx.call("GET", uri, { auth: acmeAuth })).status, uri).toBe(200);
    }
  });

  it("renames the account, refuses its own Status, another account, and API keys", async () => {
    const client = ctx.twilioClient();
    const renamed = await client.api.v2010.accounts(fixtures.acme.sid).update({ friendlyName: "Acme Labs" });
    expect(renamed.friendlyName).toBe("Acme Labs");
    await expect(
      client.api.v2010.accounts(fixtures.acme.sid).update({ status: "suspended" }),
    ).rejects.toMatchObject({ status: 400, code: 21100 });
    await expect(client.api.v2010.accounts(fixtures.globex.sid).fetch()).rejects.toMatchObject({
      status: 403,
      code: 20003,
    });
    const keyed = ctx.twilioClient(fixtures.acme.fullKey.sid, fixtures.acme.fullKey.key);
    await expect(keyed.api.v2010.accounts(fixtures.acme.sid).fetch()).rejects.toMatchObject({ status: 403 });
    const carrier = await ctx.call("GET", `/2010-04-01/Accounts/${fixtures.acme.sid}.json`, {
      auth: carrierAuth,
    });
    expect(carrier.status).toBe(403);
    expect(ctx.sandbox.store.accounts.get(fixtures.acme.sid)!.status).toBe("active");
  });

  it("creates subaccounts the parent lists, acts on and suspends, reactivates and closes", async () => {
    const parent = ctx.twilioClient();
    const sub = await parent.api.v2010.accounts.create({ friendlyName: "Customer 1" });
    expect(sub).toMatchObject({
      friendlyName: "Customer 1",
      ownerAccountSid: fixtures.acme.sid,
      status: "active",
    });
    const unnamed = await parent.api.v2010.accounts.create();
    expect(unnamed.friendlyName).toMatch(/^SubAccount Created at \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    // A subaccount is a carrier account linked to its parent.
    const carrierView = await ctx.call("GET", `/carrier/v1/accounts/${sub.sid}`, { auth: carrierAuth });
    expect(carrierView.json.data.attributes.name).toBe("Customer 1");

    expect((await parent.api.v2010.accounts.list()).map((a) => a.sid)).toEqual([
      fixtures.acme.sid,
      sub.sid,
      unnamed.sid,
    ]);
    expect((await parent.api.v2010.accounts.list({ friendlyName: "Customer 1" })).map((a) => a.sid)).toEqual([
      sub.sid,
    ]);

    // The parent's credentials act on the subaccount, as Twilio allows; the subaccount's own do too.
    const onSub = parentOn(sub.sid);
    expect((await onSub.incomingPhoneNumbers.list()).length).toBe(0);
    const own = ctx.twilioClient(sub.sid, sub.authToken);
    expect((await own.api.v2010.accounts(sub.sid).fetch()).sid).toBe(sub.sid);
    expect((await own.api.v2010.accounts.list()).map((a) => a.sid)).toEqual([sub.sid]);
    // ...but not on its parent, nor create subaccounts, nor change its own status.
    await expect(own.api.v2010.accounts(fixtures.acme.sid).fetch()).rejects.toMatchObject({ status: 403 });
    await expect(own.api.v2010.accounts.create({ friendlyName: "x" })).rejects.toMatchObject({ status: 403 });
    await expect(own.api.v2010.accounts(sub.sid).update({ status: "suspended" })).rejects.toMatchObject({
      status: 403,
    });

    const suspended = await parent.api.v2010.accounts(sub.sid).update({ status: "suspended" });
    expect(suspended.status).toBe("suspended");
    await expect(own.calls.list()).rejects.toMatchObject({ status: 403, code: 20005 });
    await expect(onSub.calls.list()).rejects.toMatchObject({ status: 403, code: 20005 });
    expect((await parent.api.v2010.accounts.list({ status: "suspended" })).map((a) => a.sid)).toEqual([
      sub.sid,
    ]);
    expect((await parent.api.v2010.accounts(sub.sid).update({ status: "active" })).status).toBe("active");
    expect((await own.calls.list()).length).toBe(0);

    // Closing releases the subaccount's numbers and is final.
    const carrierClient = ctx.twilioClient(sub.sid, fixtures.carrierKey);
    await carrierClient.incomingPhoneNumbers.create({ phoneNumber: fixtures.available.us });
    const closed = await parent.api.v2010.accounts(sub.sid).update({ status: "closed" });
    expect(closed.status).toBe("closed");
    expect(ctx.sandbox.store.phoneNumbers.where("account", sub.sid)).toEqual([]);
    await expect(parent.api.v2010.accounts(sub.sid).update({ status: "active" })).rejects.toMatchObject({
      status: 400,
      code: 20005,
    });
    const reopen = await ctx.call("PATCH", `/carrier/v1/accounts/${sub.sid}`, {
      auth: carrierAuth,
      json: { data: { type: "account", id: sub.sid, attributes: { status: "active" } } },
    });
    expect(reopen.status).toBe(422);
    const closedList = await ctx.call("GET", `/2010-04-01/Accounts.json?Status=closed`, { auth: acmeAuth });
    expect(closedList.json.accounts.map((a: { sid: string }) => a.sid)).toEqual([sub.sid]);
    expectTwilioShape(closedList.json.accounts[0], accountResource, shape("account"));
  });

  it("deletes subaccounts with their parent", async () => {
    const sub = await ctx.twilioClient().api.v2010.accounts.create({ friendlyName: "Customer 1" });
    const deleted = await ctx.call("DELETE", `/carrier/v1/accounts/${fixtures.acme.sid}`, {
      auth: carrierAuth,
    });
    expect(deleted.status).toBe(200);
    expect(ctx.sandbox.store.accounts.has(sub.sid)).toBe(false);
  });

  it("fetches the Balance from the wallet", async () => {
    const client = ctx.twilioClient();
    const before =
      ctx.sandbox.engine.store.ledger.where("account", fixtures.acme.sid).at(-1)?.balance_cents ?? 0;
    topUp(ctx.sandbox.engine, fixtures.acme.sid, { category: "test", amount_cents: 1_234 });
    const balance = await client.balance.fetch();
    expect(balance).toMatchObject({
      accountSid: fixtures.acme.sid,
      balance: ((before + 1_234) / 100).toFixed(2),
      currency: "USD",
    });
    const raw = await ctx.call("GET", `/2010-04-01/Accounts/${fixtures.acme.sid}/Balance.json`, {
      auth: acmeAuth,
    });
    expectTwilioShape(raw.json, balanceResource, shape("balance"));
    const other = await ctx.call("GET", `/2010-04-01/Accounts/${fixtures.acme.sid}/Balance.json`, {
      auth: globexAuth,
    });
    expect(other.status).toBe(403);
  });

  it("computes Usage Records from the ledger's charges, by Twilio category and period", async () => {
    const sandbox = ctx.sandbox;
    const start = sandbox.clock.now();
    const bill = (changes: Parameters<typeof insertCall>[1]) =>
      billCall(sandbox.engine, insertCall(sandbox, changes));
    // Two calls today (1 and 3 billed minutes), one yesterday's call of a subaccount.
    bill({ duration: 42 });
    bill({ duration: 150 });
    const client = ctx.twilioClient();
    const records = await client.usage.records.list();
    const calls = records.find((r) => r.category === "calls")!;
    expect(calls).toMatchObject({ count: "2", countUnit: "calls", usage: "4", usageUnit: "minutes" });
    expect(calls.price).toBeGreaterThan(0);
    const total = records.find((r) => r.category === "totalprice")!;
    expect(total.price).toBe(calls.price);
    expect(records.map((r) => r.category)).toEqual([
      "amazon-polly",
      "calls",
      "recordings",
      "sms",
      "totalprice",
      "transcriptions",
    ]);
    expect(records.find((r) => r.category === "sms")).toMatchObject({ count: "0", usage: "0", price: 0 });

    expect((await client.usage.records.today.list({ category: "calls" })).map((r) => r.count)).toEqual(["2"]);
    expect((await client.usage.records.yesterday.list({ category: "calls" })).map((r) => r.count)).toEqual([
      "0",
    ]);
    expect((await client.usage.records.thisMonth.list({ category: "calls" }))[0]!.count).toBe("2");
    expect((await client.usage.records.lastMonth.list({ category: "calls" }))[0]!.count).toBe("0");
    expect((await client.usage.records.allTime.list({ category: "calls" }))[0]!.count).toBe("2");
    expect((await client.usage.records.yearly.list({ category: "calls" }))[0]!.count).toBe("2");
    expect((await client.usage.records.monthly.list({ category: "calls" }))[0]!.count).toBe("2");

    await sandbox.clock.advance(day);
    bill({ duration: 61 });
    const daily = await client.usage.records.daily.list({ category: "calls" });
    expect(daily.map((r) => [r.startDate.toISOString().slice(0, 10), r.count, r.usage])).toEqual([
      [new Date(start).toISOString().slice(0, 10), "2", "4"],
      [new Date(start + day).toISOString().slice(0, 10), "1", "2"],
    ]);
    expect((await client.usage.records.yesterday.list({ category: "calls" }))[0]!.count).toBe("2");
    const filtered = await client.usage.records.list({ category: "calls", startDate: new Date(start + day) });
    expect(filtered[0]!.count).toBe("1");

    const raw = await ctx.call(
      "GET",
      `/2010-04-01/Accounts/${fixtures.acme.sid}/Usage/Records/Daily.json?Category=calls&StartDate=-1days`,
      { auth: acmeAuth },
    );
    expect(raw.json.usage_records.map((r: { count: string }) => r.count)).toEqual(["2", "1"]);
    for (const record of raw.json.usage_records) {
      expectTwilioShape(record, usageRecordResource, shape("usage_record"));
      for (const uri of Object.values(record.subresource_uris) as string[]) {
        expect((await ctx.call("GET", uri, { auth: acmeAuth })).status, uri).toBe(200);
      }
    }
    const bad = await ctx.call(
      "GET",
      `/2010-04-01/Accounts/${fixtures.acme.sid}/Usage/Records.json?StartDate=yesterday`,
      { auth: acmeAuth },
    );
    expect([bad.status, bad.json.code]).toEqual([400, 21100]);
  });

  it("counts a subaccount's usage in its parent's records unless IncludeSubaccounts=false", async () => {
    const sandbox = ctx.sandbox;
    const parent = ctx.twilioClient();
    const sub = await parent.api.v2010.accounts.create({ friendlyName: "Customer 1" });
    billCall(sandbox.engine, insertCall(sandbox, { account_sid: sub.sid, duration: 30 }));
    const withSubs = await parent.usage.records.list({ category: "calls" });
    expect(withSubs[0]!.count).toBe("1");
    const alone = await parent.usage.records.list({ category: "calls", includeSubaccounts: false });
    expect(alone[0]!.count).toBe("0");
    expect((await parentOn(sub.sid).usage.records.list({ category: "calls" }))[0]!.count).toBe("1");
  });
});
