// Keys through both doors with the twilio client: the account's API keys as Twilio's Keys resource, tied to the keys that authenticate.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures, globexAuth } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;

describe.each(doorNames)("Keys via %s", (door) => {
  const ctx = useDoor(door);
  const client = () => ctx.twilioClient();
  const status = (promise: Promise<unknown>) =>
    promise.then(
      () => "accepted",
      (e: { status: number; code: number }) => `${e.status} ${e.code}`,
    );

  it('creates a key whose secret is shown once ("ONLY returned when the API Key is first created") and authenticates', async () => {
    const created = await client().newKeys.create({ friendlyName: "ci runner" });
    expect(created.sid).toMatch(/^SK[0-9a-f]{32}$/);
    expect(created.friendlyName).toBe("ci runner");
    expect(created.secret.length).toBeGreaterThanOrEqual(16);
    // The sid and secret are Basic credentials on the account's resources.
    const asKey = ctx.twilioClient(created.sid, created.secret);
    expect(Array.isArray(await asKey.calls.list())).toBe(true);
    const fetched = await client().keys(created.sid).fetch();
    expect(fetched).toMatchObject({ sid: created.sid, friendlyName: "ci runner" });
    expect(JSON.stringify(fetched.toJSON())).not.toContain(created.secret);
    const listed = await client().keys.list();
    expect(listed.map((k) => k.sid)).toContain(created.sid);
    // The admin API's keys are the same keys.
    const admin = await ctx.call("GET", `/__sandbox/accounts/${fixtures.acme.sid}/api_keys`, {});
    expect(admin.json.api_keys.map((k: { sid: string }) => k.sid)).toContain(created.sid);
  });

  it("renames and deletes a key; a deleted key's credentials stop working", async () => {
    const created = await client().newKeys.create();
    expect(created.friendlyName).toBeNull();
    expect((await client().keys(created.sid).update({ friendlyName: "renamed" })).friendlyName).toBe(
      "renamed",
    );
    expect(await client().keys(created.sid).remove()).toBe(true);
    expect(await status(ctx.twilioClient(created.sid, created.secret).calls.list())).toBe("401 20003");
    expect(await status(client().keys(created.sid).fetch())).toBe("404 20404");
  });

  it("fails as Twilio does: a long FriendlyName 400, unknown or another account's keys 404, and keys cannot manage keys", async () => {
    const long = await ctx.call("POST", `${base}/Keys.json`, {
      auth: acmeAuth,
      form: { FriendlyName: "x".repeat(65) },
    });
    expect([long.status, long.json.code]).toEqual([400, 20422]);
    expect(await status(client().keys("SK00000000000000000000000000000000").fetch())).toBe("404 20404");
    const created = await client().newKeys.create({ friendlyName: "acme" });
    const globexView = await ctx.call(
      "GET",
      `/2010-04-01/Accounts/${fixtures.globex.sid}/Keys/${created.sid}.json`,
      {
        auth: globexAuth,
      },
    );
    expect(globexView.status).toBe(404);
    const asKey = ctx.twilioClient(created.sid, created.secret);
    expect(await status(asKey.keys.list())).toBe("403 20003");
    expect(await status(asKey.newKeys.create())).toBe("403 20003");
    expect(await status(asKey.keys(created.sid).remove())).toBe("403 20003");
    expect((await client().keys(created.sid).fetch()).sid).toBe(created.sid);
  });
});
