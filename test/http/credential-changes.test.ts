// Credentials that worked stop working the moment they change: a new auth token, a revoked or rescoped key, a reset to empty.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

const numbersPath = `/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers.json`;
const acmeBasic = { basic: [fixtures.acme.sid, fixtures.acme.authToken] as [string, string] };

describe.each(doorNames)("credential changes via %s", (door) => {
  const ctx = useDoor(door);

  it("refuses the old auth token once the account has a new one, and takes the new one", async () => {
    expect((await ctx.call("GET", numbersPath, { auth: acmeBasic })).status).toBe(200);
    const account = ctx.sandbox.store.accounts.get(fixtures.acme.sid)!;
    ctx.sandbox.store.accounts.replace({ ...account, auth_token: "acme_rotated_token_33333333333333" });

    const old = await ctx.call("GET", numbersPath, { auth: acmeBasic });
    expect(old.status).toBe(401);
    expect(old.json.code).toBe(20003);
    const rotated = { basic: [fixtures.acme.sid, "acme_rotated_token_33333333333333"] as [string, string] };
    expect((await ctx.call("GET", numbersPath, { auth: rotated })).status).toBe(200);
  });

  it("refuses a Basic API key once it is revoked, after it has been used", async () => {
    const minted = await ctx.call("POST", `/__sandbox/accounts/${fixtures.acme.sid}/api_keys`, {
      json: { scopes: ["incoming_phone_numbers_read"] },
      headers: { "content-type": "application/json" },
    });
    const auth = { basic: [minted.json.sid, minted.json.key] as [string, string] };
    expect((await ctx.call("GET", numbersPath, { auth })).status).toBe(200);

    expect((await ctx.call("DELETE", `/__sandbox/api_keys/${minted.json.sid}`)).status).toBe(200);
    expect((await ctx.call("GET", numbersPath, { auth })).status).toBe(401);
  });

  it("applies a key's new scopes to a header already in use", async () => {
    const auth = { bearer: fixtures.acme.readKey.key };
    expect((await ctx.call("GET", numbersPath, { auth })).status).toBe(200);
    const key = ctx.sandbox.store.apiKeys.get(fixtures.acme.readKey.sid)!;
    ctx.sandbox.store.apiKeys.replace({ ...key, scopes: ["messages_read"] });

    const refused = await ctx.call("GET", numbersPath, { auth });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain("lacks the incoming_phone_numbers_read scope");
  });

  it("refuses every credential after a reset to an empty state", async () => {
    expect((await ctx.call("GET", numbersPath, { auth: acmeBasic })).status).toBe(200);
    await ctx.call("POST", "/__sandbox/reset", {
      json: { to: "empty" },
      headers: { "content-type": "application/json" },
    });
    expect((await ctx.call("GET", numbersPath, { auth: acmeBasic })).status).toBe(401);
  });
});
