// Carrier API accounts through both doors: JSON:API documents, paging, suspension, deletion and every failure mode.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures } from "../support/fixtures.js";

const newAccount = { data: { type: "account", attributes: { name: "Initech", metadata: { tier: "gold" } } } };

describe.each(doorNames)("carrier accounts via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());

  it("creates an account: 201, Location, JSON:API document", async () => {
    const res = await ctx.call("POST", "/carrier/v1/accounts", { auth: carrierAuth, json: newAccount });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/vnd.api+json");
    const { data } = res.json;
    expect(data.id).toMatch(/^AC[0-9a-f]{32}$/);
    expect(data.type).toBe("account");
    expect(data.attributes).toMatchObject({
      name: "Initech",
      status: "active",
      default_tts_voice: "Basic.Kal",
      metadata: { tier: "gold" },
    });
    expect(data.attributes.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(res.headers.get("location")).toBe(`/carrier/v1/accounts/${data.id}`);
    expect(data.links.self).toBe(`/carrier/v1/accounts/${data.id}`);

    const credentials = await ctx.call("GET", `/__sandbox/accounts/${data.id}/credentials`);
    const numbers = await ctx.call("GET", `/2010-04-01/Accounts/${data.id}/IncomingPhoneNumbers.json`, {
      auth: { basic: [data.id, credentials.json.auth_token] },
    });
    expect(numbers.status).toBe(200);
  });

  it("lists accounts with page links and meta", async () => {
    const res = await ctx.call("GET", "/carrier/v1/accounts?per_page=1&page=1", { auth: carrierAuth });
    expect(res.status).toBe(200);
    expect(res.json.data.map((a: { id: string }) => a.id)).toEqual([fixtures.globex.sid]);
    expect(res.json.meta).toEqual({ total: 2, page: 1, per_page: 1 });
    expect(res.json.links).toEqual({
      self: "/carrier/v1/accounts?page=1&per_page=1",
      first: "/carrier/v1/accounts?page=0&per_page=1",
      prev: "/carrier/v1/accounts?page=0&per_page=1",
      next: null,
      last: "/carrier/v1/accounts?page=1&per_page=1",
    });
  });

  it("updates name, metadata and default voice, and suspends and reactivates", async () => {
    const path = `/carrier/v1/accounts/${fixtures.acme.sid}`;
    const res = await ctx.call("PATCH", path, {
      auth: carrierAuth,
      json: {
        data: {
          type: "account",
          id: fixtures.acme.sid,
          attributes: {
            name: "Acme Care",
            default_tts_voice: "Basic.Slt",
            metadata: { a: 1 },
            status: "suspended",
          },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.attributes).toMatchObject({
      name: "Acme Care",
      default_tts_voice: "Basic.Slt",
      metadata: { a: 1 },
      status: "suspended",
    });
    const numbers = `/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers.json`;
    expect((await ctx.call("GET", numbers, { auth: acmeAuth })).status).toBe(403);
    await ctx.call("PATCH", path, {
      auth: carrierAuth,
      json: { data: { type: "account", id: fixtures.acme.sid, attributes: { status: "active" } } },
    });
    expect((await ctx.call("GET", numbers, { auth: acmeAuth })).status).toBe(200);
  });

  it("deletes an account: numbers back to inventory, credentials gone", async () => {
    const res = await ctx.call("DELETE", `/carrier/v1/accounts/${fixtures.acme.sid}`, { auth: carrierAuth });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      jsonapi: { version: "1.1" },
      meta: { deleted: { type: "account", id: fixtures.acme.sid } },
    });
    expect(
      (await ctx.call("GET", `/carrier/v1/accounts/${fixtures.acme.sid}`, { auth: carrierAuth })).status,
    ).toBe(404);
    const numbers = await ctx.call(
      "GET",
      `/carrier/v1/phone_numbers?filter[number]=${encodeURIComponent(fixtures.acme.mainNumber)}`,
      {
        auth: carrierAuth,
      },
    );
    expect(numbers.json.data[0].attributes).toMatchObject({ status: "available", account_id: null });
    const old = await ctx.call("GET", `/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers.json`, {
      auth: acmeAuth,
    });
    expect(old.status).toBe(401);
    const key = await ctx.call("GET", `/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers.json`, {
      auth: { bearer: fixtures.acme.fullKey.key },
    });
    expect(key.status).toBe(401);
  });

  describe("failure modes (state unchanged after each)", () => {
    const cases: [string, () => Promise<{ status: number; json: { errors: object[] } }>, number, object][] = [
      [
        "no credentials",
        () => ctx.call("POST", "/carrier/v1/accounts", { json: newAccount }),
        401,
        { status: "401", code: "20003" },
      ],
      [
        "a wrong key",
        () => ctx.call("POST", "/carrier/v1/accounts", { json: newAccount, auth: { bearer: "nope" } }),
        401,
        { status: "401" },
      ],
      [
        "account credentials",
        () => ctx.call("POST", "/carrier/v1/accounts", { json: newAccount, auth: acmeAuth }),
        403,
        { status: "403" },
      ],
      [
        "an API key",
        () => ctx.call("GET", "/carrier/v1/accounts", { auth: { bearer: fixtures.acme.fullKey.key } }),
        403,
        { status: "403" },
      ],
      [
        "an unknown account",
        () => ctx.call("GET", `/carrier/v1/accounts/${fixtures.unknownAccount}`, { auth: carrierAuth }),
        404,
        { status: "404", title: "Not Found" },
      ],
      [
        "a type the endpoint does not serve",
        () =>
          ctx.call("POST", "/carrier/v1/accounts", {
            auth: carrierAuth,
            json: { data: { type: "phone_number", attributes: { name: "x" } } },
          }),
        409,
        { status: "409", source: { pointer: "/data/type" } },
      ],
      [
        "a data.id that is not the URL's",
        () =>
          ctx.call("PATCH", `/carrier/v1/accounts/${fixtures.acme.sid}`, {
            auth: carrierAuth,
            json: { data: { type: "account", id: fixtures.globex.sid, attributes: { name: "x" } } },
          }),
        409,
        { status: "409", source: { pointer: "/data/id" } },
      ],
      [
        "a media type parameter other than ext/profile",
        () =>
          ctx.call("POST", "/carrier/v1/accounts", {
            auth: carrierAuth,
            json: newAccount,
            headers: { "content-type": "application/vnd.api+json; charset=utf-8" },
          }),
        415,
        { status: "415" },
      ],
      [
        "a non-JSON content type",
        () =>
          ctx.call("POST", "/carrier/v1/accounts", {
            auth: carrierAuth,
            body: "name=x",
            headers: { "content-type": "application/x-www-form-urlencoded" },
          }),
        415,
        { status: "415" },
      ],
      [
        "malformed JSON",
        () =>
          ctx.call("POST", "/carrier/v1/accounts", {
            auth: carrierAuth,
            body: '{"data":',
            headers: { "content-type": "application/vnd.api+json" },
          }),
        400,
        { status: "400" },
      ],
      [
        "a missing name",
        () =>
          ctx.call("POST", "/carrier/v1/accounts", {
            auth: carrierAuth,
            json: { data: { type: "account", attributes: {} } },
          }),
        422,
        { status: "422", source: { pointer: "/data/attributes/name" } },
      ],
      [
        "a blank name",
        () =>
          ctx.call("POST", "/carrier/v1/accounts", {
            auth: carrierAuth,
            json: { data: { type: "account", attributes: { name: " " } } },
          }),
        422,
        { source: { pointer: "/data/attributes/name" } },
      ],
      [
        "an unknown attribute",
        () =>
          ctx.call("POST", "/carrier/v1/accounts", {
            auth: carrierAuth,
            json: { data: { type: "account", attributes: { name: "x", colour: "red" } } },
          }),
        422,
        { source: { pointer: "/data/attributes/colour" } },
      ],
      [
        "a bad status",
        () =>
          ctx.call("PATCH", `/carrier/v1/accounts/${fixtures.acme.sid}`, {
            auth: carrierAuth,
            json: { data: { type: "account", id: fixtures.acme.sid, attributes: { status: "closed" } } },
          }),
        422,
        { source: { pointer: "/data/attributes/status" } },
      ],
      [
        "a bad per_page",
        () => ctx.call("GET", "/carrier/v1/accounts?per_page=0", { auth: carrierAuth }),
        400,
        { status: "400", source: { parameter: "per_page" } },
      ],
      [
        "an unknown filter",
        () => ctx.call("GET", "/carrier/v1/accounts?filter[colour]=red", { auth: carrierAuth }),
        400,
        { source: { parameter: "filter[colour]" } },
      ],
      [
        "a wrong method",
        () => ctx.call("PUT", "/carrier/v1/accounts", { auth: carrierAuth }),
        405,
        { status: "405" },
      ],
    ];

    it.each(cases)("refuses %s", async (_name, send, status, error) => {
      const before = stateOf();
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.json.errors[0]).toMatchObject(error);
      expect(stateOf()).toBe(before);
    });

    it("reports every invalid attribute at once", async () => {
      const res = await ctx.call("POST", "/carrier/v1/accounts", {
        auth: carrierAuth,
        json: { data: { type: "account", attributes: { name: 3, metadata: "x" } } },
      });
      expect(res.status).toBe(422);
      expect(res.json.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort()).toEqual([
        "/data/attributes/metadata",
        "/data/attributes/name",
      ]);
      // A wrong type is reported as such, not as a missing attribute.
      const name = res.json.errors.find((e: { source: { pointer: string } }) =>
        e.source.pointer.endsWith("/name"),
      );
      expect(name.detail).toBe("data.attributes.name must be a string.");
      expect(name.detail).not.toMatch(/required/);
    });
  });
});
