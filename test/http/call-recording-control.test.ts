// Recording control on live calls through both doors with the twilio client: start, pause, resume, stop, and refusals.
import { parseBuffer } from "music-metadata";
import { describe, expect, it } from "vitest";
import { insertCall } from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures, globexAuth } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;
const customer = "+15558675310";
const voiceUrl = "https://app.example.com/voice";
const statusUrl = "https://app.example.com/recording-status";

describe.each(doorNames)("call recording control via %s", (door) => {
  const ctx = useDoor(door);
  const stateOf = () => JSON.stringify(ctx.sandbox.snapshot());
  const advance = async (ms: number) => {
    await ctx.sandbox.clock.advance(ms);
    await ctx.sandbox.settle();
  };

  /**
   * An outbound call that waits on a long Pause, answered 3 s after it is placed; the callee says "hello there"
   * at 7-9 s, "my card number is four two" at 13-16 s and "thank you" at 20-22 s. The clock stands at 5 s.
   */
  const liveCall = async (
    extra: {
      record?: boolean;
      trim?: "trim-silence" | "do-not-trim";
      recordingTrack?: "inbound" | "outbound";
    } = {},
  ) => {
    const callbacks: Record<string, string>[] = [];
    ctx.sandbox.webhooks.register(voiceUrl, () => '<Response><Pause length="120"/></Response>');
    ctx.sandbox.webhooks.register(statusUrl, ({ params }) => {
      callbacks.push(params);
      return "";
    });
    ctx.sandbox.calls.setParty(customer, {
      steps: [
        { at: "4s", say: "hello there", for: "2s" },
        { at: "10s", say: "my card number is four two", for: "3s" },
        { at: "17s", say: "thank you", for: "2s" },
      ],
    });
    const client = ctx.twilioClient();
    const call = await client.calls.create({
      to: customer,
      from: fixtures.acme.mainNumber,
      url: voiceUrl,
      ...(extra.record
        ? { record: true, recordingStatusCallback: statusUrl, recordingStatusCallbackEvent: ["completed"] }
        : {}),
      ...(extra.trim ? { trim: extra.trim } : {}),
      ...(extra.recordingTrack ? { recordingTrack: extra.recordingTrack } : {}),
    });
    await advance(5_000);
    expect((await client.calls(call.sid).fetch()).status).toBe("in-progress");
    return { client, call, callbacks };
  };

  /** The recording's audio as a client downloads it: its length in seconds. */
  const wavSeconds = async (sid: string) => {
    const media = await ctx.call("GET", `${base}/Recordings/${sid}.wav`);
    expect(media.status).toBe(200);
    const response = await fetch(`${ctx.baseUrl}/__sandbox/media/${sid}.wav`);
    const parsed = await parseBuffer(new Uint8Array(await response.arrayBuffer()), { mimeType: "audio/wav" });
    return parsed.format.duration;
  };

  /** What the account's speech-to-text made of the recording, once it has had time to finish. */
  const transcriptOf = async (sid: string) => {
    await advance(60_000);
    const raw = await ctx.call("GET", `${base}/Recordings/${sid}.json`, { auth: acmeAuth });
    expect(raw.json.transcription_status).toBe("completed");
    return raw.json.transcription_text as string;
  };

  const useStt = () =>
    ctx.call("PATCH", `/carrier/v1/accounts/${fixtures.acme.sid}`, {
      auth: carrierAuth,
      json: {
        data: {
          type: "account",
          id: fixtures.acme.sid,
          attributes: { metadata: { default_stt_provider: "deepgram" } },
        },
      },
    });

  it("starts, pauses (skip), resumes and stops one recording resource, with its status callbacks", async () => {
    await useStt();
    const { client, call, callbacks } = await liveCall();
    const started = await client.calls(call.sid).recordings.create({
      recordingStatusCallback: statusUrl,
      recordingStatusCallbackEvent: ["in-progress", "completed"],
    });
    expect(started).toMatchObject({
      callSid: call.sid,
      status: "in-progress",
      source: "StartCallRecordingAPI",
      channels: 1,
      track: "both",
      duration: null,
      conferenceSid: null,
    });
    expect(started.sid).toMatch(/^RE[0-9a-f]{32}$/);

    await advance(7_000); // 12 s: in the middle of nothing; the card number comes at 13-16 s
    const paused = await client
      .calls(call.sid)
      .recordings("Twilio.CURRENT")
      .update({ status: "paused", pauseBehavior: "skip" });
    expect(paused).toMatchObject({ sid: started.sid, status: "paused" });
    await advance(5_000); // 17 s
    expect((await client.calls(call.sid).recordings(started.sid).fetch()).status).toBe("paused");
    const resumed = await client.calls(call.sid).recordings(started.sid).update({ status: "in-progress" });
    expect(resumed).toMatchObject({ sid: started.sid, status: "in-progress" });
    await advance(8_000); // 25 s
    const stopped = await client.calls(call.sid).recordings(started.sid).update({ status: "stopped" });
    expect(stopped).toMatchObject({ sid: started.sid, status: "stopped" });

    // 5-25 s less the skipped 12-17 s: 15 s of audio, in one resource.
    const fetched = await client.calls(call.sid).recordings(started.sid).fetch();
    expect(fetched).toMatchObject({ status: "completed", duration: "15" });
    expect((await client.calls(call.sid).recordings.list()).map((r) => r.sid)).toEqual([started.sid]);
    expect(await wavSeconds(started.sid)).toBe(15);
    expect(callbacks.map((c) => [c.RecordingSid, c.RecordingStatus, c.RecordingSource])).toEqual([
      [started.sid, "in-progress", "StartCallRecordingAPI"],
      [started.sid, "completed", "StartCallRecordingAPI"],
    ]);
    expect(callbacks[1]).toMatchObject({
      CallSid: call.sid,
      RecordingDuration: "15",
      RecordingChannels: "1",
    });
    // What was said during the pause is not in the recording.
    const transcript = await transcriptOf(started.sid);
    expect(transcript).toContain("hello there");
    expect(transcript).toContain("thank you");
    expect(transcript).not.toContain("card");
    // The call goes on after its recording stopped.
    expect((await client.calls(call.sid).fetch()).status).toBe("in-progress");
  });

  it("pauses a Record=true recording with silence by default, and completes it when the call ends", async () => {
    // do-not-trim: the recording's length is the time it ran, the pause included (trim-silence is the default).
    const { client, call, callbacks } = await liveCall({ record: true, trim: "do-not-trim" });
    const [recording] = await client.calls(call.sid).recordings.list();
    expect(recording).toMatchObject({ status: "in-progress", source: "OutboundAPI" });
    await advance(7_000); // 12 s
    await client.calls(call.sid).recordings("Twilio.CURRENT").update({ status: "paused" });
    await advance(5_000); // 17 s
    await client.calls(call.sid).recordings("Twilio.CURRENT").update({ status: "in-progress" });
    await advance(8_000); // 25 s
    await client.calls(call.sid).update({ status: "completed" });
    await advance(0);
    // Answered at 3 s, ended at 25 s: the silent pause keeps its 5 s.
    const done = await client.recordings(recording!.sid).fetch();
    expect(done).toMatchObject({ status: "completed", duration: "22" });
    expect(await wavSeconds(recording!.sid)).toBe(22);
    expect(callbacks.map((c) => [c.RecordingSid, c.RecordingStatus, c.RecordingDuration])).toEqual([
      [recording!.sid, "completed", "22"],
    ]);
  });

  it("applies Trim and RecordingTrack given with Record=true on a call's create", async () => {
    const { client, call } = await liveCall({
      record: true,
      trim: "trim-silence",
      recordingTrack: "inbound",
    });
    await advance(20_000); // 25 s
    await client.calls(call.sid).update({ status: "completed" });
    await advance(0);
    const [recording] = await client.calls(call.sid).recordings.list();
    // Answered at 3 s and ended at 25 s, but speech runs from 7 s to 22 s: 15 s once trimmed.
    expect(recording).toMatchObject({ status: "completed", track: "inbound", duration: "15" });
  });

  it("stops a <Dial record> recording mid-bridge: the Dial reports that recording, and an unanswered Dial keeps a stopped one", async () => {
    const afterDial: Record<string, string>[] = [];
    const agent = "+15558675311";
    ctx.sandbox.webhooks.register(voiceUrl, () =>
      [
        "<Response>",
        `<Dial record="record-from-ringing" action="${voiceUrl}/after" timeout="10"><Number>${agent}</Number></Dial>`,
        "</Response>",
      ].join(""),
    );
    ctx.sandbox.webhooks.register(`${voiceUrl}/after`, ({ params }) => {
      afterDial.push(params);
      return "<Response><Hangup/></Response>";
    });
    ctx.sandbox.calls.setParty(agent, { hangupAfter: "30s" });
    const client = ctx.twilioClient();
    const call = await client.calls.create({ to: customer, from: fixtures.acme.mainNumber, url: voiceUrl });
    await advance(10_000);
    const [recording] = await client.calls(call.sid).recordings.list();
    expect(recording).toMatchObject({ source: "DialVerb", status: "in-progress" });
    const stopped = await client.calls(call.sid).recordings("Twilio.CURRENT").update({ status: "stopped" });
    expect(stopped).toMatchObject({ sid: recording!.sid, status: "stopped" });
    await advance(60_000);
    expect(afterDial).toHaveLength(1);
    expect(afterDial[0]).toMatchObject({ DialCallStatus: "completed", RecordingSid: recording!.sid });
    expect((await client.recordings(recording!.sid).fetch()).status).toBe("completed");
    expect(ctx.sandbox.calls.alerts().filter((a) => a.level === "error")).toEqual([]);

    // Recording from ringing, stopped before anyone answers: the Dial finds no answer and the recording stays.
    ctx.sandbox.calls.setParty(agent, { outcome: "no-answer" });
    const unanswered = await client.calls.create({
      to: customer,
      from: fixtures.acme.mainNumber,
      url: voiceUrl,
    });
    await advance(6_000);
    const [ringing] = await client.calls(unanswered.sid).recordings.list();
    await client.calls(unanswered.sid).recordings(ringing!.sid).update({ status: "stopped" });
    await advance(30_000);
    expect(afterDial.at(-1)).toMatchObject({ DialCallStatus: "no-answer" });
    expect((await client.recordings(ringing!.sid).fetch()).status).toBe("completed");
  });

  it("trims leading and trailing silence, and takes the events separated by spaces as Twilio's docs write them", async () => {
    const { client, call, callbacks } = await liveCall();
    const started = await ctx.call("POST", `${base}/Calls/${call.sid}/Recordings.json`, {
      auth: acmeAuth,
      form: {
        Trim: "trim-silence",
        RecordingChannels: "dual",
        RecordingTrack: "inbound",
        RecordingStatusCallback: statusUrl,
        RecordingStatusCallbackMethod: "GET",
        RecordingStatusCallbackEvent: "in-progress completed",
      },
    });
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({ status: "in-progress", channels: 2, track: "inbound" });
    await advance(20_000); // 25 s
    await client.calls(call.sid).recordings(started.json.sid).update({ status: "stopped" });
    // Speech from 7 s to 22 s: 15 s once the silence around it is cut.
    expect((await client.recordings(started.json.sid).fetch()).duration).toBe("15");
    expect(callbacks.map((c) => c.RecordingStatus)).toEqual(["in-progress", "completed"]);
  });

  it("refuses a call that is not in progress with 21220, and bad parameters with Twilio's codes, changing nothing", async () => {
    const client = ctx.twilioClient();
    const queued = await client.calls.create({ to: customer, from: fixtures.acme.mainNumber, url: voiceUrl });
    const finished = insertCall(ctx.sandbox, { status: "completed" });
    const before = stateOf();
    for (const sid of [queued.sid, finished.sid]) {
      const refused = await client
        .calls(sid)
        .recordings.create()
        .catch((e) => e);
      expect(refused).toMatchObject({ status: 400, code: 21220 });
      expect(refused.message).toContain("not in progress");
    }
    const path = `${base}/Calls/${queued.sid}/Recordings.json`;
    const bad: [Record<string, string>, number][] = [
      [{ RecordingChannels: "stereo" }, 21200],
      [{ RecordingStatusCallback: "nope" }, 21609],
      [{ RecordingStatusCallbackMethod: "PUT" }, 21209],
      [{ RecordingStatusCallbackEvent: "answered" }, 21626],
      [{ Trim: "yes" }, 21200],
      [{ RecordingTrack: "left" }, 21200],
    ];
    for (const [form, code] of bad) {
      const response = await ctx.call("POST", path, { auth: acmeAuth, form });
      expect(response.status, JSON.stringify(form)).toBe(400);
      expect(response.json.code, JSON.stringify(form)).toBe(code);
    }
    const unknown = await client
      .calls("CA00000000000000000000000000000000")
      .recordings.create()
      .catch((e) => e);
    expect(unknown).toMatchObject({ status: 404, code: 20404 });
    const foreign = await ctx.call("POST", path, { auth: globexAuth });
    expect(foreign.status).toBe(403);
    expect(stateOf()).toBe(before);
  });

  it("refuses changes to a recording that is not running, an unknown one, and a bad Status", async () => {
    const { client, call } = await liveCall();
    const none = await client
      .calls(call.sid)
      .recordings("Twilio.CURRENT")
      .update({ status: "paused" })
      .catch((e) => e);
    expect(none).toMatchObject({ status: 404, code: 20404 });
    const recording = await client.calls(call.sid).recordings.create();
    const path = `${base}/Calls/${call.sid}/Recordings/${recording.sid}.json`;
    const before = stateOf();
    const bad: Record<string, string>[] = [
      { Status: "completed" },
      { Status: "paused", PauseBehavior: "mute" },
      {},
    ];
    for (const form of bad) {
      const response = await ctx.call("POST", path, { auth: acmeAuth, form });
      expect(response.status, JSON.stringify(form)).toBe(400);
      expect(response.json.code, JSON.stringify(form)).toBe(21200);
    }
    const unknown = await ctx.call("POST", `${base}/Calls/${call.sid}/Recordings/RE${"0".repeat(32)}.json`, {
      auth: acmeAuth,
      form: { Status: "paused" },
    });
    expect(unknown.json.code).toBe(20404);
    expect(stateOf()).toBe(before);

    await client.calls(call.sid).recordings(recording.sid).update({ status: "stopped" });
    const again = await client
      .calls(call.sid)
      .recordings(recording.sid)
      .update({ status: "in-progress" })
      .catch((e) => e);
    expect(again).toMatchObject({ status: 400, code: 21220 });
    expect(again.message).toContain("is completed");
    // Pausing twice or resuming a running recording changes nothing.
    const second = await client.calls(call.sid).recordings.create();
    const resumed = await client.calls(call.sid).recordings(second.sid).update({ status: "in-progress" });
    expect(resumed.status).toBe("in-progress");
  });

  it("needs recordings_write: a read-only key is refused with 403", async () => {
    const { call } = await liveCall();
    const mint = async (scopes: string[]) =>
      (
        await ctx.call("POST", `/__sandbox/accounts/${fixtures.acme.sid}/api_keys`, {
          json: { scopes },
          headers: { "content-type": "application/json" },
        })
      ).json.key as string;
    const path = `${base}/Calls/${call.sid}/Recordings.json`;
    const readOnly = await ctx.call("POST", path, { auth: { bearer: await mint(["recordings_read"]) } });
    expect(readOnly.status).toBe(403);
    expect(readOnly.json.message).toContain("recordings_write");
    const writer = await ctx.call("POST", path, { auth: { bearer: await mint(["recordings_write"]) } });
    expect(writer.status).toBe(201);
  });
});
