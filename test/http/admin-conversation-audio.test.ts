// GET /__sandbox/calls/{CallSid}/conversation.wav through the doors: the WAV of a <Connect> call, and the admin API's errors for anything else.
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, serve } from "../../src/server/serve.js";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";
import { type StreamApp, type StreamMessage, startStreamApp } from "../support/stream-app.js";
import { callee, useStreamWorld } from "../support/stream-world.js";
import { readWav } from "../support/wav-file.js";

const { VoiceResponse } = twilio.twiml;
const path = (sid: string) => `/__sandbox/calls/${sid}/conversation.wav`;
/** 300 ms of one mu-law byte, played when the stream starts; the app closes at the mark after it. */
const greeting = Buffer.alloc(2400, 0x20);

const greet = (message: StreamMessage, connection: { send(m: unknown): void; socket: { close(): void } }) => {
  if (message.event === "start") {
    connection.send({
      event: "media",
      streamSid: message.streamSid,
      media: { payload: greeting.toString("base64") },
    });
    connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: "done" } });
  }
  if (message.event === "mark") connection.socket.close();
};

const streamMarkup = (url: string) => {
  const r = new VoiceResponse();
  r.connect().stream({ url });
  r.say("Goodbye");
  return r.toString();
};

describe.each(doorNames)("conversation audio via %s", (door) => {
  const ctx = useDoor(door);
  const w = useStreamWorld(ctx);

  it("serves a media stream call's conversation as a two-channel WAV, the one the library gives", async () => {
    const app = await w.app(greet);
    const call = await w.place(streamMarkup(app.url()));
    await w.run();
    const res = await fetch(`${ctx.baseUrl}${path(call.sid)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/x-wav");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${call.sid}-conversation.wav"`,
    );
    const body = new Uint8Array(await res.arrayBuffer());
    expect(
      Buffer.from(body).equals(Buffer.from((await ctx.sandbox.calls.conversationAudio(call.sid))!)),
    ).toBe(true);
    const wav = readWav(body);
    expect(wav).toMatchObject({ riff: "RIFFWAVE", channels: 2, rate: 8000, bits: 16 });
    const agent = wav.channel(1);
    const first = agent.findIndex((v) => v !== 0);
    expect(agent.filter((v) => v !== 0)).toHaveLength(greeting.length);
    expect(agent.subarray(first, first + greeting.length).every((v) => v === agent[first])).toBe(true);
  });

  it("answers 404 in the admin format for a call without an app, and for a call it does not know", async () => {
    const call = await w.place("<Response><Say>No agent here</Say></Response>");
    await w.run();
    const none = await ctx.call("GET", path(call.sid));
    expect(none.status).toBe(404);
    expect(none.json.error).toMatchObject({ status: 404, title: "Not Found" });
    expect(none.json.error.message).toMatch(/no conversation audio: it had no <Connect> app/);
    const unknown = await ctx.call("GET", path(`CA${"0".repeat(32)}`));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.message).toMatch(/was not found/);
  });

  it("answers 400 naming CallSid for a sid that is no call's, and 405 to a write", async () => {
    for (const bad of ["CA123", `RE${"0".repeat(32)}`, `CA${"G".repeat(32)}`, `CA${"0".repeat(33)}`, "%20"]) {
      const res = await ctx.call("GET", path(bad));
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ status: 400, parameter: "CallSid" });
    }
    expect((await ctx.call("DELETE", path(`CA${"0".repeat(32)}`))).status).toBe(405);
  });
});

describe("conversation audio from the standalone server (virtual clock, admin token)", () => {
  let running: RunningServer;
  let app: StreamApp;
  const adminToken = "conversation-admin-token";
  beforeAll(async () => {
    running = await serve({ port: 0, clock: "virtual", adminToken });
    app = await startStreamApp(greet);
  });
  afterAll(async () => {
    await app.close();
    await running.close();
  });

  it("serves the WAV to the admin token only", async () => {
    const client = twilio(fixtures.acme.sid, fixtures.acme.authToken);
    client.api.baseUrl = running.url;
    const call = await client.calls.create({
      to: callee,
      from: fixtures.acme.mainNumber,
      twiml: streamMarkup(app.url()),
    });
    const admin = { authorization: `Bearer ${adminToken}` };
    const idle = await fetch(`${running.url}/__sandbox/clock/run_until_idle`, {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: "{}",
    });
    expect(idle.status).toBe(200);
    expect((await fetch(`${running.url}${path(call.sid)}`)).status).toBe(401);
    const res = await fetch(`${running.url}${path(call.sid)}`, { headers: admin });
    expect(res.status).toBe(200);
    const wav = readWav(new Uint8Array(await res.arrayBuffer()));
    expect(wav.channels).toBe(2);
    expect(wav.channel(1).filter((v) => v !== 0)).toHaveLength(greeting.length);
  });
});
