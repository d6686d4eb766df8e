// Outgoing caller IDs through both doors with the twilio client: validation requests, list, fetch, rename, delete, use as From.
import { describe, expect, it } from "vitest";
import {
  outgoingCallerIdResource,
  validationRequestResource,
} from "../../src/http/account-api/outgoing-caller-ids.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures, globexAuth } from "../support/fixtures.js";
import { expectTwilioShape, type TwilioProperty } from "../support/twilio-shape.js";
import twilioShapes from "../support/twilio-shapes.json" with { type: "json" };

const shapes = twilioShapes.resources as Record<string, { properties: Record<string, TwilioProperty> }>;
const shape = (name: string) => ({ name, properties: shapes[name]!.properties });
const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/OutgoingCallerIds`;
const cell = "+15558675310";

describe.each(doorNames)("outgoing caller IDs via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());

  it("answers a validation request with a six-digit code and verifies the number", async () => {
    const client = ctx.twilioClient();
    const request = await client.validationRequests.create({ phoneNumber: cell, friendlyName: "Ada's cell" });
    expect(request).toMatchObject({
      accountSid: fixtures.acme.sid,
      phoneNumber: cell,
      friendlyName: "Ada's cell",
    });
    expect(request.validationCode).toMatch(/^\d{6}$/);
    const [callerId] = await client.outgoingCallerIds.list();
    expect(callerId).toMatchObject({
      phoneNumber: cell,
      friendlyName: "Ada's cell",
      accountSid: fixtures.acme.sid,
    });
    expect(callerId!.sid).toMatch(/^PN[0-9a-f]{32}$/);

    const raw = await ctx.call("GET", `${base}/${callerId!.sid}.json`, { auth: acmeAuth });
    expectTwilioShape(raw.json, outgoingCallerIdResource, shape("outgoing_caller_id"));
    const second = await ctx.call("POST", `${base}.json`, {
      auth: acmeAuth,
      form: { PhoneNumber: "+15558675311" },
    });
    expectTwilioShape(second.json, validationRequestResource, shape("validation_request"));
    expect(second.json.friendly_name).toBe("(555) 867-5311");
  });

  it("lets a call use a verified caller ID as From, until it is deleted", async () => {
    const client = ctx.twilioClient();
    const place = () =>
      client.calls.create({ from: cell, to: "+15558675399", url: "https://app.example.com/voice" });
    await expect(place()).rejects.toMatchObject({ status: 400, code: 21210 });
    await client.validationRequests.create({ phoneNumber: cell });
    const call = await place();
    expect(call).toMatchObject({ from: cell, status: "queued" });
    const [callerId] = await client.outgoingCallerIds.list({ phoneNumber: cell });
    expect(await client.outgoingCallerIds(callerId!.sid).remove()).toBe(true);
    await expect(place()).rejects.toMatchObject({ code: 21210 });
  });

  it("filters, renames, and refuses duplicates, bad numbers, other accounts and missing scopes", async () => {
    const client = ctx.twilioClient();
    await client.validationRequests.create({ phoneNumber: cell });
    await client.validationRequests.create({ phoneNumber: "+15558675311", friendlyName: "desk" });
    expect((await client.outgoingCallerIds.list({ friendlyName: "desk" })).map((c) => c.phoneNumber)).toEqual(
      ["+15558675311"],
    );
    const [first] = await client.outgoingCallerIds.list({ phoneNumber: cell });
    expect(
      (await client.outgoingCallerIds(first!.sid).update({ friendlyName: "renamed" })).friendlyName,
    ).toBe("renamed");
    const before = stateOf();
    await expect(client.validationRequests.create({ phoneNumber: cell })).rejects.toMatchObject({
      status: 400,
      code: 21450,
    });
    await expect(client.validationRequests.create({ phoneNumber: "555" })).rejects.toMatchObject({
      status: 400,
      code: 21401,
    });
    const other = await ctx.call(
      "GET",
      `/2010-04-01/Accounts/${fixtures.globex.sid}/OutgoingCallerIds/${first!.sid}.json`,
      {
        auth: globexAuth,
      },
    );
    expect(other.json.code).toBe(20404);
    const readOnly = ctx.twilioClient(fixtures.acme.readKey.sid, fixtures.acme.readKey.key);
    await expect(readOnly.outgoingCallerIds(first!.sid).remove()).rejects.toMatchObject({ status: 403 });
    expect(stateOf()).toBe(before);
  });
});
