// A message's Media subresource through both doors with the twilio client: list, fetch, content, delete.
import { describe, expect, it } from "vitest";
import { mediaResource } from "../../src/http/account-api/message-media.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures, globexAuth } from "../support/fixtures.js";
import { expectTwilioShape, type TwilioProperty } from "../support/twilio-shape.js";
import twilioShapes from "../support/twilio-shapes.json" with { type: "json" };

const shapes = twilioShapes.resources as Record<string, { properties: Record<string, TwilioProperty> }>;
const base = `/2010-04-01/Accounts/${fixtures.acme.sid}/Messages`;

describe.each(doorNames)("message media via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());
  const sendMms = () =>
    ctx.twilioClient().messages.create({
      to: "+15558675310",
      from: fixtures.acme.mainNumber,
      body: "Look",
      mediaUrl: ["https://cdn.example.com/cat.jpg", "https://cdn.example.com/menu.pdf"],
    });

  it("lists and fetches an MMS's media with Twilio's fields and content types", async () => {
    const message = await sendMms();
    const media = await ctx.twilioClient().messages(message.sid).media.list();
    expect(media.map((m) => m.contentType)).toEqual(["image/jpeg", "application/pdf"]);
    expect(media[0]).toMatchObject({ accountSid: fixtures.acme.sid, parentSid: message.sid });
    expect(media[0]!.sid).toMatch(/^ME[0-9a-f]{32}$/);
    const one = await ctx.twilioClient().messages(message.sid).media(media[1]!.sid).fetch();
    expect(one.uri).toBe(`${base}/${message.sid}/Media/${media[1]!.sid}.json`);
    const raw = await ctx.call("GET", `${base}/${message.sid}/Media/${media[0]!.sid}.json`, {
      auth: acmeAuth,
    });
    expectTwilioShape(raw.json, mediaResource, {
      name: "message_media",
      properties: shapes.message_media!.properties,
    });
    const list = await ctx.call("GET", `${base}/${message.sid}/Media.json`, { auth: acmeAuth });
    expect(list.json.media_list).toHaveLength(2);
  });

  it("serves the content without credentials (a redirect to the file), behind auth once media auth is on", async () => {
    const message = await sendMms();
    const [media] = await ctx.twilioClient().messages(message.sid).media.list();
    const content = `${ctx.baseUrl}${base}/${message.sid}/Media/${media!.sid}`;
    const open = await fetch(content, { redirect: "manual" });
    expect([open.status, open.headers.get("location")]).toEqual([302, "https://cdn.example.com/cat.jpg"]);
    await ctx.call("PATCH", `/__sandbox/accounts/${fixtures.acme.sid}/settings`, {
      json: { media_auth: true },
      headers: { "content-type": "application/json" },
    });
    expect((await fetch(content, { redirect: "manual" })).status).toBe(401);
    const basic = Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64");
    const authed = await fetch(content, { redirect: "manual", headers: { authorization: `Basic ${basic}` } });
    expect(authed.status).toBe(302);
  });

  it("deletes a media item, keeping the message; refuses unknown items, other accounts and read-only keys", async () => {
    const message = await sendMms();
    const client = ctx.twilioClient();
    const [first, second] = await client.messages(message.sid).media.list();
    const before = stateOf();
    const readOnly = ctx.twilioClient(fixtures.acme.readKey.sid, fixtures.acme.readKey.key);
    await expect(readOnly.messages(message.sid).media(first!.sid).remove()).rejects.toMatchObject({
      status: 403,
    });
    const other = await ctx.call(
      "GET",
      `/2010-04-01/Accounts/${fixtures.globex.sid}/Messages/${message.sid}/Media.json`,
      {
        auth: globexAuth,
      },
    );
    expect(other.json.code).toBe(20404);
    await expect(
      client
        .messages(message.sid)
        .media(`ME${"0".repeat(32)}`)
        .fetch(),
    ).rejects.toMatchObject({
      status: 404,
      code: 20404,
    });
    expect(stateOf()).toBe(before);
    expect(await client.messages(message.sid).media(first!.sid).remove()).toBe(true);
    expect((await client.messages(message.sid).media.list()).map((m) => m.sid)).toEqual([second!.sid]);
    expect(await client.messages(message.sid).fetch()).toMatchObject({ numMedia: "2", body: "Look" });
  });
});
