// Carrier SIP trunks (with test calls) and rates through both doors: CRUD, filters, secrets, routing checks, refusals.
import { describe, expect, it } from "vitest";
import { findRate } from "../../src/engine/billing/rates.js";
import { document, expectRefused } from "../support/carrier.js";
import { doorNames, useDoor } from "../support/doors.js";
import { carrierAuth, fixtures } from "../support/fixtures.js";

describe.each(doorNames)("carrier SIP trunks and rates via %s", (door) => {
  const ctx = useDoor(door);
  const acmeNumberId = () => ctx.sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!.sid;
  const account = (id: string | null) => ({
    account: { data: id === null ? null : { type: "account", id } },
  });
  const createTrunk = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
    ctx.call("POST", "/carrier/v1/sip_trunks", {
      auth: carrierAuth,
      json: document("sip_trunk", attributes, relationships ? { relationships } : {}),
    });

  it("creates a trunk with URIs, credentials, IPs and numbers, and never shows the password", async () => {
    const res = await createTrunk(
      {
        name: "Acme PBX",
        termination_uris: ["sip:pbx.acme.example:5060"],
        username: "acme",
        password: "s3cret-pass",
        allowed_ips: ["203.0.113.10", "198.51.100.0/24"],
      },
      {
        ...account(fixtures.acme.sid),
        phone_numbers: { data: [{ type: "phone_number", id: acmeNumberId() }] },
      },
    );
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      type: "sip_trunk",
      attributes: {
        name: "Acme PBX",
        account_id: fixtures.acme.sid,
        termination_uris: ["sip:pbx.acme.example:5060"],
        username: "acme",
        password_set: true,
        allowed_ips: ["203.0.113.10", "198.51.100.0/24"],
        phone_number_ids: [acmeNumberId()],
      },
      relationships: {
        account: { data: { type: "account", id: fixtures.acme.sid } },
        phone_numbers: { data: [{ type: "phone_number", id: acmeNumberId() }] },
      },
    });
    expect(res.text).not.toContain("s3cret-pass");
    const events = await ctx.call("GET", "/carrier/v1/events?filter[type]=sip_trunk.created", {
      auth: carrierAuth,
    });
    expect(events.text).not.toContain("s3cret-pass");

    const id = res.json.data.id;
    const patched = await ctx.call("PATCH", `/carrier/v1/sip_trunks/${id}`, {
      auth: carrierAuth,
      json: document(
        "sip_trunk",
        { username: null, password: null },
        { id, relationships: { phone_numbers: { data: [] } } },
      ),
    });
    expect(patched.json.data.attributes).toMatchObject({
      username: null,
      password_set: false,
      phone_number_ids: [],
    });
    const byAccount = await ctx.call(
      "GET",
      `/carrier/v1/sip_trunks?filter[account_id]=${fixtures.acme.sid}`,
      { auth: carrierAuth },
    );
    expect(byAccount.json.meta.total).toBe(1);
    expect((await ctx.call("DELETE", `/carrier/v1/sip_trunks/${id}`, { auth: carrierAuth })).status).toBe(
      200,
    );
    expect((await ctx.call("GET", `/carrier/v1/sip_trunks/${id}`, { auth: carrierAuth })).status).toBe(404);
  });

  it("places a test call through a trunk: an outbound phone_call record with the trunk set", async () => {
    const trunk = (await createTrunk({ name: "Carrier-wide", termination_uris: ["sip:gw.example.net"] })).json
      .data.id;
    const res = await ctx.call("POST", `/carrier/v1/sip_trunks/${trunk}/test_call`, {
      auth: carrierAuth,
      json: document("phone_call", {
        from: fixtures.acme.mainNumber,
        to: "+14155550123",
        account_id: fixtures.acme.sid,
      }),
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      type: "phone_call",
      attributes: {
        account_id: fixtures.acme.sid,
        direction: "outbound-api",
        from: fixtures.acme.mainNumber,
        to: "+14155550123",
        sip_trunk_id: trunk,
      },
      relationships: { sip_trunk: { data: { type: "sip_trunk", id: trunk } } },
    });
    expect(res.headers.get("location")).toBe(`/carrier/v1/phone_calls/${res.json.data.id}`);
    const listed = await ctx.call("GET", `/carrier/v1/phone_calls?filter[sip_trunk_id]=${trunk}`, {
      auth: carrierAuth,
    });
    expect(listed.json.data.map((c: { id: string }) => c.id)).toEqual([res.json.data.id]);
  });

  it("refuses bad trunks and test calls that cannot be routed, changing nothing", async () => {
    const bare = (await createTrunk({ name: "No route" })).json.data.id;
    const owned = (
      await createTrunk(
        { name: "Acme", termination_uris: ["sip:pbx.acme.example"] },
        account(fixtures.acme.sid),
      )
    ).json.data.id;
    const testCall = (trunk: string, attributes: Record<string, unknown>) => () =>
      ctx.call("POST", `/carrier/v1/sip_trunks/${trunk}/test_call`, {
        auth: carrierAuth,
        json: document("phone_call", attributes),
      });
    await expectRefused(
      ctx,
      testCall(bare, { from: "+14155550100", to: "+14155550123", account_id: fixtures.acme.sid }),
      422,
    );
    await expectRefused(ctx, testCall(owned, { from: "+14155550100", to: "not-a-number" }), 422, {
      source: { pointer: "/data/attributes/to" },
    });
    await expectRefused(
      ctx,
      testCall(owned, { from: "+14155550100", to: "+14155550123", account_id: fixtures.globex.sid }),
      422,
      {
        source: { pointer: "/data/attributes/account_id" },
      },
    );
    const carrierWide = (await createTrunk({ name: "All", termination_uris: ["sip:gw.example.net"] })).json
      .data.id;
    await expectRefused(ctx, testCall(carrierWide, { from: "+14155550100", to: "+14155550123" }), 422, {
      source: { pointer: "/data/attributes/account_id" },
    });
    await expectRefused(
      ctx,
      testCall(fixtures.unknownAccount, { from: "+14155550100", to: "+14155550123" }),
      404,
    );

    await expectRefused(ctx, () => createTrunk({ name: "x", termination_uris: ["http://nope"] }), 422, {
      source: { pointer: "/data/attributes/termination_uris/0" },
    });
    await expectRefused(ctx, () => createTrunk({ name: "x", allowed_ips: ["300.1.1.1"] }), 422, {
      source: { pointer: "/data/attributes/allowed_ips/0" },
    });
    await expectRefused(ctx, () => createTrunk({ name: "x", username: "only-user" }), 422, {
      source: { pointer: "/data/attributes/password" },
    });
    // A Globex trunk may not carry Acme's number; a number routes through one trunk only.
    const number = { phone_numbers: { data: [{ type: "phone_number", id: acmeNumberId() }] } };
    await expectRefused(
      ctx,
      () => createTrunk({ name: "x" }, { ...account(fixtures.globex.sid), ...number }),
      422,
      {
        source: { pointer: "/data/relationships/phone_numbers/data/0/id" },
      },
    );
    await createTrunk({ name: "first" }, number);
    await expectRefused(ctx, () => createTrunk({ name: "second" }, number), 422, {
      source: { pointer: "/data/relationships/phone_numbers/data/0/id" },
    });
    await expectRefused(ctx, () => createTrunk({ name: "x" }, account(fixtures.unknownAccount)), 422, {
      source: { pointer: "/data/relationships/account/data/id" },
    });
  });

  it("keeps a rate sheet: create, filter, update, delete, and the longest prefix prices a number", async () => {
    const created = await ctx.call("POST", "/carrier/v1/rates", {
      auth: carrierAuth,
      json: document("rate", { category: "voice", country: "US", prefix: "+1415", price: "0.0100" }),
    });
    expect(created.status).toBe(201);
    expect(created.json.data.attributes).toMatchObject({
      category: "voice",
      country: "US",
      prefix: "+1415",
      price: "0.0100",
      currency: "USD",
      unit: "minute",
    });
    const id = created.json.data.id;
    expect(findRate(ctx.sandbox.engine, "voice", "+14155550100")?.sid).toBe(id);
    expect(findRate(ctx.sandbox.engine, "voice", "+12125550100")?.prefix).toBe("+1");
    expect(findRate(ctx.sandbox.engine, "sms", "+33123456789")).toBeUndefined();

    const voiceUs = await ctx.call("GET", "/carrier/v1/rates?filter[category]=voice&filter[country]=US", {
      auth: carrierAuth,
    });
    expect(voiceUs.json.data.map((r: { attributes: { prefix: string } }) => r.attributes.prefix)).toEqual([
      "+1",
      "+1800",
      "+1415",
    ]);
    const byPrefix = await ctx.call("GET", "/carrier/v1/rates?filter[prefix]=%2B1415", { auth: carrierAuth });
    expect(byPrefix.json.data.map((r: { id: string }) => r.id)).toEqual([id]);

    const patched = await ctx.call("PATCH", `/carrier/v1/rates/${id}`, {
      auth: carrierAuth,
      json: document("rate", { price: "0.0090" }, { id }),
    });
    expect(patched.json.data.attributes.price).toBe("0.0090");
    expect((await ctx.call("DELETE", `/carrier/v1/rates/${id}`, { auth: carrierAuth })).status).toBe(200);
    expect(findRate(ctx.sandbox.engine, "voice", "+14155550100")?.prefix).toBe("+1");

    await expectRefused(
      ctx,
      () =>
        ctx.call("POST", "/carrier/v1/rates", {
          auth: carrierAuth,
          json: document("rate", { category: "voice", country: "US", prefix: "+1", price: "0.02" }),
        }),
      422,
      { source: { pointer: "/data/attributes/prefix" } },
    );
    await expectRefused(
      ctx,
      () =>
        ctx.call("POST", "/carrier/v1/rates", {
          auth: carrierAuth,
          json: document("rate", { category: "fax", country: "US", prefix: "+1", price: "-1" }),
        }),
      422,
      { source: { pointer: "/data/attributes/category" } },
    );
    await expectRefused(
      ctx,
      () => ctx.call("GET", "/carrier/v1/rates?filter[unit]=minute", { auth: carrierAuth }),
      400,
      {
        source: { parameter: "filter[unit]" },
      },
    );
    await expectRefused(
      ctx,
      () => ctx.call("GET", `/carrier/v1/rates/${fixtures.unknownAccount}`, { auth: carrierAuth }),
      404,
    );
  });
});
