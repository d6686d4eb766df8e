// JSON:API 1.1 content negotiation on the carrier API (406, 415) and relationships an endpoint does not take (403).
import { describe, expect, it } from "vitest";
import { document, expectRefused } from "../support/carrier.js";
import { doorNames, useDoor } from "../support/doors.js";
import { carrierAuth, fixtures } from "../support/fixtures.js";

const jsonApi = "application/vnd.api+json";
const newAccount = document("account", { name: "Initech" });

describe.each(doorNames)("carrier API negotiation via %s", (door) => {
  const ctx = useDoor(door);
  const get = (accept: string) =>
    ctx.call("GET", "/carrier/v1/accounts", { auth: carrierAuth, headers: { accept } });

  it("answers 406 when every JSON:API media type in Accept carries a parameter other than ext or profile", async () => {
    for (const accept of [`${jsonApi}; charset=utf-8`, `${jsonApi}; version=1, ${jsonApi}; foo=bar`]) {
      const res = await get(accept);
      expect(res.status, accept).toBe(406);
      expect(res.json.errors[0]).toMatchObject({ status: "406", title: "Not Acceptable" });
    }
    // An extension this server does not support, in every instance, is a 406 too.
    expect((await get(`${jsonApi}; ext="https://example.com/ext/bulk"`)).status).toBe(406);
  });

  it("serves an Accept with one usable instance, profiles, a weight, or no JSON:API media type at all", async () => {
    for (const accept of [
      jsonApi,
      `${jsonApi}; charset=utf-8, ${jsonApi}`,
      `${jsonApi}; profile="https://example.com/profiles/timestamps"`,
      `${jsonApi}; q=0.9`,
      "application/json",
      "*/*",
    ]) {
      const res = await get(accept);
      expect(res.status, accept).toBe(200);
    }
  });

  it("answers 415 for a Content-Type with an unsupported ext, and takes a profile", async () => {
    await expectRefused(
      ctx,
      () =>
        ctx.call("POST", "/carrier/v1/accounts", {
          auth: carrierAuth,
          json: newAccount,
          headers: { "content-type": `${jsonApi}; ext="https://jsonapi.org/ext/atomic"` },
        }),
      415,
      { status: "415", title: "Unsupported Media Type" },
    );
    const profiled = await ctx.call("POST", "/carrier/v1/accounts", {
      auth: carrierAuth,
      json: newAccount,
      headers: { "content-type": `${jsonApi}; profile="https://example.com/profiles/timestamps"` },
    });
    expect(profiled.status).toBe(201);
  });

  it("refuses a relationships member the endpoint does not take with 403, changing nothing", async () => {
    const account = ctx.sandbox.store.accounts.get(fixtures.acme.sid)!;
    await expectRefused(
      ctx,
      () =>
        ctx.call("PATCH", `/carrier/v1/accounts/${account.sid}`, {
          auth: carrierAuth,
          json: document(
            "account",
            { name: "Renamed" },
            { id: account.sid, relationships: { phone_numbers: { data: [] } } },
          ),
        }),
      403,
      { status: "403", source: { pointer: "/data/relationships/phone_numbers" } },
    );
    const number = ctx.sandbox.store.phoneNumbers.findOne("number", fixtures.available.us)!;
    await expectRefused(
      ctx,
      () =>
        ctx.call("PATCH", `/carrier/v1/phone_numbers/${number.sid}`, {
          auth: carrierAuth,
          json: document(
            "phone_number",
            { price: "2.00" },
            {
              id: number.sid,
              relationships: { account: { data: { type: "account", id: fixtures.acme.sid } } },
            },
          ),
        }),
      403,
      { status: "403", source: { pointer: "/data/relationships/account" } },
    );
    // Relationships the endpoint does take still work, and an empty member changes nothing.
    const trunk = await ctx.call("POST", "/carrier/v1/sip_trunks", {
      auth: carrierAuth,
      json: document(
        "sip_trunk",
        { name: "Office" },
        { relationships: { account: { data: { type: "account", id: fixtures.acme.sid } } } },
      ),
    });
    expect(trunk.status, trunk.text).toBe(201);
    const renamed = await ctx.call("PATCH", `/carrier/v1/accounts/${account.sid}`, {
      auth: carrierAuth,
      json: document("account", { name: "Renamed" }, { id: account.sid, relationships: {} }),
    });
    expect(renamed.status).toBe(200);
  });
});
