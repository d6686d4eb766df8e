// The admin API through both doors: health, reset, snapshots, credentials and scoped keys.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { carrierAuth, fixtures } from "../support/fixtures.js";

const numbersPath = `/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers.json`;

describe.each(doorNames)("admin API via %s", (door) => {
  const ctx = useDoor(door);

  it("reports health and version without credentials", async () => {
    const res = await ctx.call("GET", "/__sandbox/health");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "ok", name: "voice-sandbox", clock: { mode: "virtual" } });
    expect(res.json.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("resets to the fixtures, or to empty", async () => {
    await ctx.call("POST", "/carrier/v1/accounts", {
      auth: carrierAuth,
      json: { data: { type: "account", attributes: { name: "Temp" } } },
    });
    const count = async () =>
      (await ctx.call("GET", "/carrier/v1/accounts", { auth: carrierAuth })).json.meta.total;
    expect(await count()).toBe(3);
    expect(
      (
        await ctx.call("POST", "/__sandbox/reset", {
          json: {},
          headers: { "content-type": "application/json" },
        })
      ).status,
    ).toBe(200);
    expect(await count()).toBe(2);
    await ctx.call("POST", "/__sandbox/reset", {
      json: { to: "empty" },
      headers: { "content-type": "application/json" },
    });
    expect(await count()).toBe(0);
  });

  it("gives the same ids after a reset (seeded)", async () => {
    const make = async () =>
      (
        await ctx.call("POST", "/carrier/v1/accounts", {
          auth: carrierAuth,
          json: { data: { type: "account", attributes: { name: "Seeded" } } },
        })
      ).json.data.id;
    const first = await make();
    ctx.sandbox.reset();
    expect(await make()).toBe(first);
  });

  it("snapshots the whole state and restores it", async () => {
    const snapshot = (await ctx.call("GET", "/__sandbox/state")).json;
    expect(snapshot.format).toBe("voice-sandbox/1");
    await ctx.call("DELETE", `/carrier/v1/accounts/${fixtures.acme.sid}`, { auth: carrierAuth });
    const put = await ctx.call("PUT", "/__sandbox/state", {
      json: snapshot,
      headers: { "content-type": "application/json" },
    });
    expect(put.status).toBe(200);
    const numbers = await ctx.call("GET", numbersPath, {
      auth: { basic: [fixtures.acme.sid, fixtures.acme.authToken] },
    });
    expect(numbers.status).toBe(200);
    expect((await ctx.call("GET", "/__sandbox/state")).json).toEqual(snapshot);
  });

  it("refuses a bad snapshot and changes nothing", async () => {
    const before = JSON.stringify(ctx.sandbox.snapshot());
    const snapshot = ctx.sandbox.snapshot();
    const broken = { ...snapshot, store: { ...snapshot.store, accounts: [{ sid: "nope" }] } };
    const res = await ctx.call("PUT", "/__sandbox/state", {
      json: broken,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.message).toMatch(/refused/);
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
    const garbage = await ctx.call("PUT", "/__sandbox/state", {
      body: "{",
      headers: { "content-type": "application/json" },
    });
    expect(garbage.status).toBe(400);
  });

  it("shows an account's credentials and 404s unknown accounts", async () => {
    const res = await ctx.call("GET", `/__sandbox/accounts/${fixtures.acme.sid}/credentials`);
    expect(res.json).toEqual({
      account_sid: fixtures.acme.sid,
      auth_token: fixtures.acme.authToken,
      test_account_sid: fixtures.acme.test.sid,
      test_auth_token: fixtures.acme.test.authToken,
    });
    expect((await ctx.call("GET", `/__sandbox/accounts/${fixtures.unknownAccount}/credentials`)).status).toBe(
      404,
    );
  });

  it("mints scoped keys that work at once, and revokes one without touching others", async () => {
    const minted = await ctx.call("POST", `/__sandbox/accounts/${fixtures.acme.sid}/api_keys`, {
      json: { scopes: ["incoming_phone_numbers_read"] },
      headers: { "content-type": "application/json" },
    });
    expect(minted.status).toBe(201);
    expect(minted.json).toMatchObject({
      sid: expect.stringMatching(/^SK/),
      scopes: ["incoming_phone_numbers_read"],
    });
    const auth = { bearer: minted.json.key as string };
    expect((await ctx.call("GET", numbersPath, { auth })).status).toBe(200);

    const revoked = await ctx.call("DELETE", `/__sandbox/api_keys/${minted.json.sid}`);
    expect(revoked.status).toBe(200);
    expect((await ctx.call("GET", numbersPath, { auth })).status).toBe(401);
    expect((await ctx.call("GET", numbersPath, { auth: { bearer: fixtures.acme.readKey.key } })).status).toBe(
      200,
    );

    const badScope = await ctx.call("POST", `/__sandbox/accounts/${fixtures.acme.sid}/api_keys`, {
      json: { scopes: ["everything"] },
      headers: { "content-type": "application/json" },
    });
    expect(badScope.status).toBe(400);
  });
});

describe("admin token", () => {
  const ctx = useDoor("msw", { adminToken: "admin-secret-token" });

  it("guards every admin route but health", async () => {
    expect((await ctx.call("GET", "/__sandbox/health")).status).toBe(200);
    expect((await ctx.call("GET", "/__sandbox/state")).status).toBe(401);
    expect((await ctx.call("GET", "/__sandbox/state", { auth: { bearer: "wrong" } })).status).toBe(403);
    expect(
      (await ctx.call("GET", "/__sandbox/state", { auth: { bearer: "admin-secret-token" } })).status,
    ).toBe(200);
  });
});

describe("carrier key override", () => {
  const ctx = useDoor("msw", { carrierKey: "a-different-carrier-key-123" });

  it("replaces the fixtures' key", async () => {
    expect((await ctx.call("GET", "/carrier/v1/accounts", { auth: carrierAuth })).status).toBe(401);
    expect(
      (await ctx.call("GET", "/carrier/v1/accounts", { auth: { bearer: "a-different-carrier-key-123" } }))
        .status,
    ).toBe(200);
  });
});

describe.each(doorNames)("admin agent status via %s", (door) => {
  const ctx = useDoor(door);

  it("sets an agent's status by extension, as a softphone would, and 404s unknown extensions", async () => {
    const created = await ctx.call("POST", `/carrier/v1/accounts/${fixtures.acme.sid}/agent_extensions`, {
      auth: carrierAuth,
      json: { data: { type: "agent_extension", attributes: { agent_name: "Ada", extension: "201" } } },
    });
    expect(created.status).toBe(201);
    const path = `/__sandbox/accounts/${fixtures.acme.sid}/agents/201/status`;
    const res = await ctx.call("PUT", path, {
      json: { status: "dnd" },
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ agent_name: "Ada", extension: "201", status: "dnd" });
    const carrierView = await ctx.call(
      "GET",
      `/carrier/v1/accounts/${fixtures.acme.sid}/agent_extensions/${created.json.data.id}`,
      {
        auth: carrierAuth,
      },
    );
    expect(carrierView.json.data.attributes.status).toBe("dnd");

    const before = JSON.stringify(ctx.sandbox.snapshot());
    const bad = await ctx.call("PUT", path, {
      json: { status: "asleep" },
      headers: { "content-type": "application/json" },
    });
    expect(bad.status).toBe(400);
    const unknown = await ctx.call("PUT", `/__sandbox/accounts/${fixtures.acme.sid}/agents/999/status`, {
      json: { status: "online" },
      headers: { "content-type": "application/json" },
    });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
  });
});
