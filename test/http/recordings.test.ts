// Account API recordings and transcriptions through both doors: fetch with transcription fields, lists, media, delete.
import { parseBuffer } from "music-metadata";
import { describe, expect, it } from "vitest";
import {
  insertCall,
  insertRecording,
  insertTranscription,
  sampleSegments,
} from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures, globexAuth } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;

describe.each(doorNames)("recordings via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());
  const setup = () => {
    const call = insertCall(ctx.sandbox);
    const recording = insertRecording(ctx.sandbox, call);
    return { call, recording };
  };

  it("fetches a recording with Twilio's fields and the latest transcription's fields", async () => {
    const { call, recording } = setup();
    const bare = await ctx.twilioClient().recordings(recording.sid).fetch();
    expect(bare).toMatchObject({
      sid: recording.sid,
      callSid: call.sid,
      status: "completed",
      channels: 2,
      source: "DialVerb",
      duration: "6",
      conferenceSid: null,
      uri: `${base}/Recordings/${recording.sid}.json`,
    });
    expect(bare.mediaUrl).toMatch(new RegExp(`${base}/Recordings/${recording.sid}$`));

    insertTranscription(ctx.sandbox, recording, { status: "failed", text: null, segments: null });
    insertTranscription(ctx.sandbox, recording);
    const raw = await ctx.call("GET", `${base}/Recordings/${recording.sid}.json`, { auth: acmeAuth });
    expect(raw.json).toMatchObject({
      track: "both",
      transcription_status: "completed",
      transcription_text: "Hello, I need help with my order.\nSure, what is the order number?",
      transcription_provider: "sandbox-stt",
      transcription_language: "en-US",
      transcription_segments: sampleSegments,
    });
  });

  it("lists per account and per call, newest first, with PageSize paging", async () => {
    const { call } = setup();
    const other = insertCall(ctx.sandbox);
    const mine = [insertRecording(ctx.sandbox, call), insertRecording(ctx.sandbox, call)];
    insertRecording(ctx.sandbox, other);
    const client = ctx.twilioClient();
    expect(await client.recordings.list()).toHaveLength(4);
    const perCall = await client.calls(call.sid).recordings.list();
    expect(perCall.map((r) => r.sid).slice(0, 2)).toEqual([mine[1]!.sid, mine[0]!.sid]);
    expect(perCall).toHaveLength(3);
    expect(await client.recordings.list({ callSid: other.sid })).toHaveLength(1);
    const page = await client.recordings.page({ pageSize: 3 });
    expect(page.instances).toHaveLength(3);
    expect((await page.nextPage())!.instances).toHaveLength(1);
    const big = await ctx.call("GET", `${base}/Recordings.json?PageSize=5000`, { auth: acmeAuth });
    expect(big.json.page_size).toBe(1000);
    const unknownCall = await ctx.call(
      "GET",
      `${base}/Calls/CA00000000000000000000000000000000/Recordings.json`,
      {
        auth: acmeAuth,
      },
    );
    expect(unknownCall.json.code).toBe(20404);
  });

  it("redirects .wav, no extension and format=wav to a valid WAV of the recording's length", async () => {
    const { recording } = setup();
    for (const suffix of [".wav", "", "?format=wav"]) {
      const redirect = await ctx.call("GET", `${base}/Recordings/${recording.sid}${suffix}`, {
        auth: acmeAuth,
        headers: {},
      });
      // fetch follows the 302 to the media file.
      expect(redirect.status).toBe(200);
      expect(redirect.headers.get("content-type")).toBe("audio/x-wav");
    }
    const response = await fetch(`${ctx.baseUrl}${base}/Recordings/${recording.sid}.wav`, {
      headers: { authorization: `Basic ${Buffer.from(acmeAuth.basic.join(":")).toString("base64")}` },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location).toMatch(new RegExp(`/__sandbox/media/${recording.sid}\\.wav$`));
    const media = await fetch(new URL(location, ctx.baseUrl));
    const bytes = new Uint8Array(await media.arrayBuffer());
    const parsed = await parseBuffer(bytes, { mimeType: "audio/wav" });
    expect(parsed.format.container).toBe("WAVE");
    expect(parsed.format.codec).toBe("PCM");
    expect(parsed.format.sampleRate).toBe(8000);
    expect(parsed.format.numberOfChannels).toBe(2);
    expect(parsed.format.duration).toBe(6);
  });

  it("redirects .mp3 and format=mp3 to a valid MP3 of the recording's length", async () => {
    const { call } = setup();
    const mono = insertRecording(ctx.sandbox, call, { channels: 1, duration: 12 });
    for (const suffix of [".mp3", "?format=mp3", ".wav?format=mp3"]) {
      const response = await ctx.call("GET", `${base}/Recordings/${mono.sid}${suffix}`, { auth: acmeAuth });
      expect(response.headers.get("content-type")).toBe("audio/mpeg");
    }
    const media = await fetch(`${ctx.baseUrl}/__sandbox/media/${mono.sid}.mp3`);
    const parsed = await parseBuffer(
      new Uint8Array(await media.arrayBuffer()),
      { mimeType: "audio/mpeg" },
      { duration: true },
    );
    expect(parsed.format.container).toBe("MPEG");
    expect(parsed.format.codec).toBe("MPEG 2.5 Layer 3");
    expect(parsed.format.sampleRate).toBe(8000);
    expect(parsed.format.numberOfChannels).toBe(1);
    // LAME's encoder delay and its last whole frame make an MP3 a little longer than the audio.
    expect(parsed.format.duration).toBeGreaterThanOrEqual(12);
    expect(parsed.format.duration).toBeLessThan(12.3);
  });

  it("serves media without credentials, as Twilio does, until the account turns media auth on", async () => {
    const { call, recording } = setup();
    // The RecordingUrl a webhook carries, fetched as an app would: no credentials, following the redirect.
    for (const path of [
      `${base}/Recordings/${recording.sid}`,
      `${base}/Recordings/${recording.sid}.mp3`,
      `${base}/Calls/${call.sid}/Recordings/${recording.sid}.wav`,
    ]) {
      const media = await fetch(`${ctx.baseUrl}${path}`);
      expect(media.status, path).toBe(200);
      expect(media.headers.get("content-type"), path).toMatch(/^audio\//);
    }
    // The resource itself still needs the account's credentials.
    expect((await ctx.call("GET", `${base}/Recordings/${recording.sid}.json`)).status).toBe(401);

    const settings = `/__sandbox/accounts/${fixtures.acme.sid}/settings`;
    const turnedOn = await ctx.call("PATCH", settings, {
      json: { media_auth: true },
      headers: { "content-type": "application/json" },
    });
    expect(turnedOn.json).toEqual({ account_sid: fixtures.acme.sid, media_auth: true, whatsapp_senders: [] });
    const anonymous = await ctx.call("GET", `${base}/Recordings/${recording.sid}.mp3`);
    expect([anonymous.status, anonymous.json.code]).toEqual([401, 20003]);
    const authed = await ctx.call("GET", `${base}/Recordings/${recording.sid}.mp3`, { auth: acmeAuth });
    expect(authed.status).toBe(200);
    const readKey = await ctx.call("GET", `${base}/Recordings/${recording.sid}`, {
      auth: { bearer: fixtures.acme.readKey.key },
    });
    expect(readKey.status).toBe(200);
    expect((await ctx.call("GET", settings)).json.media_auth).toBe(true);
  });

  it("guards media of other accounts, and 404s unknown recordings", async () => {
    const { recording } = setup();
    const other = await ctx.call(
      "GET",
      `/2010-04-01/Accounts/${fixtures.globex.sid}/Recordings/${recording.sid}.wav`,
      {
        auth: globexAuth,
      },
    );
    expect(other.json.code).toBe(20404);
    expect(
      (await fetch(`${ctx.baseUrl}/__sandbox/media/RE00000000000000000000000000000000.wav`)).status,
    ).toBe(404);
  });

  it("deletes a recording with its transcriptions; read-only keys cannot", async () => {
    const { recording } = setup();
    const transcription = insertTranscription(ctx.sandbox, recording);
    const before = stateOf();
    const readOnly = ctx.twilioClient(fixtures.acme.readKey.sid, fixtures.acme.readKey.key);
    await expect(readOnly.recordings(recording.sid).remove()).rejects.toMatchObject({ status: 403 });
    expect(stateOf()).toBe(before);
    expect(await ctx.twilioClient().recordings(recording.sid).remove()).toBe(true);
    expect(ctx.sandbox.store.recordings.get(recording.sid)).toBeUndefined();
    expect(ctx.sandbox.store.transcriptions.get(transcription.sid)).toBeUndefined();
    await expect(ctx.twilioClient().recordings(recording.sid).fetch()).rejects.toMatchObject({ code: 20404 });
  });

  it("serves transcriptions per account and per recording, and deletes them", async () => {
    const { recording } = setup();
    const transcription = insertTranscription(ctx.sandbox, recording);
    const client = ctx.twilioClient();
    const listed = await client.transcriptions.list();
    expect(listed.map((t) => t.sid)).toEqual([transcription.sid]);
    const fetched = await client.transcriptions(transcription.sid).fetch();
    expect(fetched).toMatchObject({
      recordingSid: recording.sid,
      status: "completed",
      transcriptionText: "Hello, I need help with my order.\nSure, what is the order number?",
      duration: "6",
      price: 0.05,
      type: "fast",
    });
    expect(await client.recordings(recording.sid).transcriptions.list()).toHaveLength(1);
    expect((await client.recordings(recording.sid).transcriptions(transcription.sid).fetch()).sid).toBe(
      transcription.sid,
    );
    expect(await client.transcriptions(transcription.sid).remove()).toBe(true);
    expect(await client.transcriptions.list()).toHaveLength(0);
  });
});

describe.each(doorNames)(
  "recording media of an account whose fixture turns media auth on, via %s",
  (door) => {
    const ctx = useDoor(door, {
      fixtures: {
        carrier: { api_key: fixtures.carrierKey },
        accounts: [
          { sid: fixtures.acme.sid, name: "Acme", auth_token: fixtures.acme.authToken, media_auth: true },
        ],
      },
    });

    it("answers 401 without the account's credentials and the audio with them", async () => {
      const recording = insertRecording(ctx.sandbox, insertCall(ctx.sandbox));
      const path = `${base}/Recordings/${recording.sid}.wav`;
      expect((await ctx.call("GET", path)).status).toBe(401);
      expect((await ctx.call("GET", path, { auth: acmeAuth })).headers.get("content-type")).toBe(
        "audio/x-wav",
      );
    });
  },
);
