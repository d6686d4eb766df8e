// Applications through both doors with the twilio client: create, list, fetch, update, delete, and their refusals.
import { describe, expect, it } from "vitest";
import { applicationResource } from "../../src/http/account-api/applications.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures, globexAuth } from "../support/fixtures.js";
import { expectTwilioShape, type TwilioProperty } from "../support/twilio-shape.js";
import twilioShapes from "../support/twilio-shapes.json" with { type: "json" };

const shapes = twilioShapes.resources as Record<string, { properties: Record<string, TwilioProperty> }>;
const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/Applications`;

describe.each(doorNames)("applications via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());

  it("creates an application with Twilio's defaults and fields", async () => {
    const app = await ctx.twilioClient().applications.create({
      friendlyName: "IVR",
      voiceUrl: "https://app.example.com/voice",
      statusCallback: "https://app.example.com/status",
      smsUrl: "https://app.example.com/sms",
      smsMethod: "GET",
    });
    expect(app.sid).toMatch(/^AP[0-9a-f]{32}$/);
    expect(app).toMatchObject({
      accountSid: fixtures.acme.sid,
      friendlyName: "IVR",
      voiceUrl: "https://app.example.com/voice",
      voiceMethod: "POST",
      voiceFallbackUrl: null,
      statusCallback: "https://app.example.com/status",
      statusCallbackMethod: "POST",
      smsUrl: "https://app.example.com/sms",
      smsMethod: "GET",
      voiceCallerIdLookup: false,
      apiVersion: "2010-04-01",
      uri: `${base}/${app.sid}.json`,
    });
    const raw = await ctx.call("GET", `${base}/${app.sid}.json`, { auth: acmeAuth });
    expectTwilioShape(raw.json, applicationResource, {
      name: "application",
      properties: shapes.application!.properties,
    });
  });

  it("lists oldest first with a FriendlyName filter, fetches, updates and deletes", async () => {
    const client = ctx.twilioClient();
    const first = await client.applications.create({ friendlyName: "first" });
    const second = await client.applications.create({ friendlyName: "second" });
    expect((await client.applications.list()).map((a) => a.sid)).toEqual([first.sid, second.sid]);
    expect((await client.applications.list({ friendlyName: "second" })).map((a) => a.sid)).toEqual([
      second.sid,
    ]);
    expect((await client.applications(first.sid).fetch()).friendlyName).toBe("first");
    const updated = await client.applications(first.sid).update({
      voiceUrl: "https://app.example.com/v2",
      voiceMethod: "GET",
    });
    expect(updated).toMatchObject({
      friendlyName: "first",
      voiceUrl: "https://app.example.com/v2",
      voiceMethod: "GET",
    });
    expect(await client.applications(first.sid).remove()).toBe(true);
    await expect(client.applications(first.sid).fetch()).rejects.toMatchObject({ status: 404, code: 20404 });
  });

  it("refuses bad handlers with Twilio's codes, other accounts and missing scopes, changing nothing", async () => {
    const client = ctx.twilioClient();
    const app = await client.applications.create({ friendlyName: "IVR" });
    const before = stateOf();
    await expect(client.applications.create({ voiceUrl: "nope" })).rejects.toMatchObject({
      status: 400,
      code: 21402,
    });
    await expect(client.applications(app.sid).update({ voiceMethod: "PUT" as "GET" })).rejects.toMatchObject({
      status: 400,
      code: 21403,
    });
    const other = await ctx.call(
      "GET",
      `/2010-04-01/Accounts/${fixtures.globex.sid}/Applications/${app.sid}.json`,
      {
        auth: globexAuth,
      },
    );
    expect(other.json.code).toBe(20404);
    const readOnly = ctx.twilioClient(fixtures.acme.readKey.sid, fixtures.acme.readKey.key);
    await expect(readOnly.applications(app.sid).remove()).rejects.toMatchObject({ status: 403 });
    expect(stateOf()).toBe(before);
  });
});
