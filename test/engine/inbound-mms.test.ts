// Inbound MMS: the sms_url post carries MediaContentType{N} and MediaUrl{N} (the Media resource), whose content is served.
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

describe("inbound MMS", () => {
  const h = useEngine();

  it("posts each media item's content type and Media URL, which lists, fetches and redirects to the content", async () => {
    const client = h.door.twilioClient();
    const [number] = await client.incomingPhoneNumbers.list({ phoneNumber: fixtures.acme.mainNumber });
    await client.incomingPhoneNumbers(number!.sid).update({ smsUrl: h.app.url("/sms") });
    h.app.on("/sms", "<Response/>");
    const res = await h.door.call("POST", "/__sandbox/messages/inbound", {
      json: {
        from: "+14155559876",
        to: fixtures.acme.mainNumber,
        body: "Photo",
        media_urls: ["https://phone.example.com/IMG_0001", "https://phone.example.com/clip.mp4"],
        media_content_types: ["image/heic"],
      },
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      num_media: "2",
      subresource_uris: { media: expect.stringMatching(/Media\.json$/) },
    });
    await h.run();

    const params = h.app.received("/sms")[0]!.params;
    expect(params).toMatchObject({
      NumMedia: "2",
      MediaContentType0: "image/heic",
      MediaContentType1: "video/mp4",
    });
    const media = await client.messages(res.json.sid).media.list();
    expect(params.MediaUrl0).toBe(
      `https://api.voice-sandbox.test/2010-04-01/Accounts/${fixtures.acme.sid}/Messages/${res.json.sid}/Media/${media[0]!.sid}`,
    );
    expect(media.map((m) => m.contentType)).toEqual(["image/heic", "video/mp4"]);
    // The MediaUrl answers without credentials, as Twilio's does, with the content's location.
    const content = await fetch(params.MediaUrl1!.replace("https://api.voice-sandbox.test", h.door.baseUrl), {
      redirect: "manual",
    });
    expect([content.status, content.headers.get("location")]).toEqual([
      302,
      "https://phone.example.com/clip.mp4",
    ]);
  });
});

describe("media and callbacks named by markup", () => {
  const h = useEngine();

  it("keeps only http(s) URLs from a reply's <Media> and statusCallback, reporting each one left out as 11100", async () => {
    const client = h.door.twilioClient();
    const [number] = await client.incomingPhoneNumbers.list({ phoneNumber: fixtures.acme.mainNumber });
    await client.incomingPhoneNumbers(number!.sid).update({ smsUrl: h.app.url("/sms") });
    h.app.on(
      "/sms",
      `<Response><Message statusCallback="javascript:alert(1)"><Body>See this</Body>` +
        "<Media>javascript:alert(2)</Media><Media>data:text/html,x</Media>" +
        "<Media>https://cdn.example.com/cat.jpg</Media></Message></Response>",
    );
    const res = await h.door.call("POST", "/__sandbox/messages/inbound", {
      json: { from: "+14155559876", to: fixtures.acme.mainNumber, body: "Hi" },
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(201);
    await h.run();

    const [reply] = await client.messages.list({ from: fixtures.acme.mainNumber, to: "+14155559876" });
    expect(reply?.numMedia).toBe("1");
    const media = await client.messages(reply!.sid).media.list();
    expect(media).toHaveLength(1);
    const stored = h.door.sandbox.store.messages.get(reply!.sid);
    expect(JSON.stringify(stored)).not.toMatch(/javascript:|data:text/);
    const alerts = h.door.sandbox.store.events.all().filter((e) => e.type === "message.markup_error");
    expect(alerts.map((e) => (e.data as { error: string }).error)).toEqual([
      'Invalid URL format (11100): "javascript:alert(2)" is not an http(s) URL and was left out',
      'Invalid URL format (11100): "data:text/html,x" is not an http(s) URL and was left out',
      'Invalid URL format (11100): "javascript:alert(1)" is not an http(s) URL and was left out',
    ]);
  });
});
