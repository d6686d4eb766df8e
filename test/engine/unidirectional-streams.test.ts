// <Start><Stream>, <Stop><Stream> and the Streams subresource: forked audio to a real WebSocket app, through both doors.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { streamResource } from "../../src/http/account-api/streams.js";
import { speechLengthMs } from "../../src/markup/speech-length.js";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";
import { appBase, useStreamWorld } from "../support/stream-world.js";
import { expectTwilioShape, type TwilioProperty } from "../support/twilio-shape.js";
import twilioShapes from "../support/twilio-shapes.json" with { type: "json" };

const { VoiceResponse } = twilio.twiml;
const silence = Buffer.alloc(160, 0xff).toString("base64");
const shapes = twilioShapes.resources as Record<string, { properties: Record<string, TwilioProperty> }>;

for (const doorName of doorNames) {
  describe(`unidirectional streams through the ${doorName} door`, () => {
    const door = useDoor(doorName);
    const w = useStreamWorld(door);
    const { app, run, place } = w;

    it("<Start><Stream> forks both tracks and the markup goes straight on; <Stop><Stream name> ends it", async () => {
      const streamApp = await app();
      const r = new VoiceResponse();
      const stream = r.start().stream({
        url: streamApp.url(),
        name: "monitor",
        track: "both_tracks",
        statusCallback: `${appBase}/stream-status`,
      });
      stream.parameter({ name: "team", value: "support" });
      r.say("Hello there");
      r.stop().stream({ name: "monitor" });
      r.say("Goodbye");
      const call = await place(r.toString());
      await run();

      // The Says ran one after the other: the stream held nothing up.
      const heard = door.sandbox.calls.heard(call.sid);
      expect(heard.map((e) => e.text)).toEqual(["Hello there", "Goodbye"]);
      const start = streamApp.messages("start")[0]!;
      expect(start.start).toMatchObject({
        callSid: call.sid,
        tracks: ["inbound", "outbound"],
        customParameters: { team: "support" },
      });
      const media = streamApp.messages("media");
      expect(new Set(media.map((m) => m.media.track))).toEqual(new Set(["inbound", "outbound"]));
      // The outbound frames carry the sandbox's voice while "Hello there" plays (its words, then silence
      // to the end of its time), the inbound ones silence.
      const outbound = media.filter((m) => m.media.track === "outbound");
      const outboundVoice = outbound.filter((m) => m.media.payload !== silence);
      expect(outboundVoice.length).toBeGreaterThan(10);
      expect(outboundVoice.length).toBeLessThanOrEqual(speechLengthMs("Hello there") / 20);
      const voicedAt = outboundVoice.map((m) => Number(m.media.timestamp));
      expect(voicedAt.at(-1)! - voicedAt[0]!).toBeLessThan(speechLengthMs("Hello there"));
      expect(media.filter((m) => m.media.track === "inbound").every((m) => m.media.payload === silence)).toBe(
        true,
      );
      expect(streamApp.messages().at(-1)).toMatchObject({ event: "stop", stop: { callSid: call.sid } });
      expect(streamApp.messages("dtmf")).toEqual([]);
      expect(w.streamCallbacks().map((c) => [c.StreamEvent, c.StreamName])).toEqual([
        ["stream-started", "monitor"],
        ["stream-stopped", "monitor"],
      ]);
    });

    it("a <Start> stream ends with the call: the app gets stop when the markup runs out", async () => {
      const streamApp = await app();
      const r = new VoiceResponse();
      r.start().stream({ url: streamApp.url() });
      r.pause({ length: 1 });
      const call = await place(r.toString());
      await run();
      const last = streamApp.messages().at(-1);
      expect(last).toMatchObject({
        event: "stop",
        stop: { accountSid: fixtures.acme.sid, callSid: call.sid },
      });
      expect(streamApp.messages("media").length).toBeGreaterThanOrEqual(49);
      expect((await door.twilioClient().calls(call.sid).fetch()).status).toBe("completed");
    });

    it("an app that talks back on a unidirectional stream gets warning 31951; the call is not disturbed", async () => {
      const streamApp = await app((message, connection) => {
        if (message.event === "start") {
          connection.send({ event: "media", streamSid: message.streamSid, media: { payload: silence } });
        }
      });
      const r = new VoiceResponse();
      r.start().stream({ url: streamApp.url() });
      r.say("Still talking");
      const call = await place(r.toString());
      await run();
      expect(door.sandbox.calls.alerts(call.sid)).toEqual([
        expect.objectContaining({ code: 31951, message: expect.stringContaining("unidirectional") }),
      ]);
      expect(door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["Still talking"]);
    });

    it("a fifth stream at once is not started (Twilio's limit is four): warning 12200", async () => {
      const streamApp = await app();
      const r = new VoiceResponse();
      const start = r.start();
      for (let i = 1; i <= 5; i++) start.stream({ url: streamApp.url(), name: `s${i}` });
      r.pause({ length: 1 });
      const call = await place(r.toString());
      await run();
      expect(streamApp.connections).toHaveLength(4);
      expect(door.sandbox.calls.alerts(call.sid)).toEqual([
        expect.objectContaining({
          code: 12200,
          level: "warning",
          message: expect.stringContaining("four streams"),
        }),
      ]);
    });

    it("the Streams subresource starts a stream on a live call and stops it by name (twilio client)", async () => {
      const streamApp = await app();
      const client = door.twilioClient();
      const call = await place(new VoiceResponse().pause({ length: 30 }).toString());
      await door.sandbox.clock.advance(5000);
      const created = await client.calls(call.sid).streams.create({
        url: streamApp.url(),
        name: "rest-stream",
        track: "inbound_track",
        statusCallback: `${appBase}/stream-status`,
        "parameter1.name": "source",
        "parameter1.value": "api",
      });
      expect(created).toMatchObject({
        accountSid: fixtures.acme.sid,
        callSid: call.sid,
        name: "rest-stream",
        status: "in-progress",
      });
      expect(created.sid).toMatch(/^MZ[0-9a-f]{32}$/);
      await door.sandbox.clock.advance(1000);
      const stopped = await client.calls(call.sid).streams("rest-stream").update({ status: "stopped" });
      expect(stopped).toMatchObject({ sid: created.sid, status: "stopped" });
      // Stopped by sid too, and again: the record stays stopped while the call lasts.
      const raw = await door.call(
        "POST",
        `/2010-04-01/Accounts/${fixtures.acme.sid}/Calls/${call.sid}/Streams/${created.sid}.json`,
        { auth: { basic: [fixtures.acme.sid, fixtures.acme.authToken] }, form: { Status: "stopped" } },
      );
      expect(raw.status).toBe(200);
      expectTwilioShape(raw.json, streamResource, { name: "stream", ...shapes.stream! });
      await run();
      const start = streamApp.messages("start")[0]!;
      expect(start.streamSid).toBe(created.sid);
      expect(start.start.customParameters).toEqual({ source: "api" });
      expect(streamApp.messages("media").length).toBeGreaterThanOrEqual(49);
      expect(streamApp.messages("media").length).toBeLessThanOrEqual(51);
      expect(streamApp.messages().at(-1)).toMatchObject({ event: "stop" });
      expect(w.streamCallbacks().map((c) => c.StreamEvent)).toEqual(["stream-started", "stream-stopped"]);
    });

    it("refuses a stream on a call that is not live, a non-WebSocket Url, a bad Status and an unknown stream", async () => {
      const streamApp = await app();
      const auth = { basic: [fixtures.acme.sid, fixtures.acme.authToken] as [string, string] };
      const call = await place(new VoiceResponse().say("Short").toString());
      await run();
      const path = `/2010-04-01/Accounts/${fixtures.acme.sid}/Calls/${call.sid}/Streams`;
      const ended = await door.call("POST", `${path}.json`, { auth, form: { Url: streamApp.url() } });
      expect(ended.status).toBe(400);
      expect(ended.json).toMatchObject({ code: 21220, status: 400 });
      const badUrl = await door.call("POST", `${path}.json`, {
        auth,
        form: { Url: "https://example.com/media" },
      });
      expect(badUrl.status).toBe(400);
      expect(badUrl.json).toMatchObject({ code: 21205 });
      const noUrl = await door.call("POST", `${path}.json`, { auth, form: {} });
      expect(noUrl.status).toBe(400);
      const badStatus = await door.call("POST", `${path}/MZ00000000000000000000000000000000.json`, {
        auth,
        form: { Status: "paused" },
      });
      expect(badStatus.status).toBe(400);
      const unknown = await door.call("POST", `${path}/MZ00000000000000000000000000000000.json`, {
        auth,
        form: { Status: "stopped" },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.json).toMatchObject({ code: 20404 });
      const otherAccount = await door.call("POST", `${path}.json`, {
        auth: { basic: [fixtures.globex.sid, fixtures.globex.authToken] },
        form: { Url: streamApp.url() },
      });
      expect([401, 403, 404]).toContain(otherAccount.status);
      expect(streamApp.connections).toHaveLength(0);
    });
  });
}
