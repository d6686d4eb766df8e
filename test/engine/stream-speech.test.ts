// Media streams carry real speech: the caller's scripted words on the inbound track, and the app's audio lands in the recording.
import alawmulaw from "alawmulaw";
import twilio from "twilio";
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { rms } from "../support/audio-energy.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";
import { type StreamMessage, startStreamApp } from "../support/stream-app.js";
import { callee, placeWithTwiml, useStreamWorld } from "../support/stream-world.js";

const { VoiceResponse } = twilio.twiml;
const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;
/** Six words the caller says 500 ms into the stream: 2.4 s of the timing model. */
const words = "I would like to pay my bill";

/** RMS of one 20 ms media payload. */
function payloadRms(payload: string): number {
  return rms(alawmulaw.mulaw.decode(Buffer.from(payload, "base64")));
}

/** The app's audio: one second of a 500 Hz square wave, loud enough to find, as mu-law. */
const appSamples = Int16Array.from({ length: 8000 }, (_, i) => (Math.floor(i / 8) % 2 === 0 ? 6000 : -6000));
const appAudio = Buffer.from(alawmulaw.mulaw.encode(appSamples));

function connectMarkup(url: string) {
  const r = new VoiceResponse();
  r.connect().stream({ url });
  r.hangup();
  return r.toString();
}

describe.each(doorNames)("stream speech via %s", (door) => {
  // The apps here only listen: a turn they leave unanswered waits a second, not ten.
  const ctx = useDoor(door, { agentTurnTimeout: "1s" });
  const w = useStreamWorld(ctx);

  it("inbound frames carry the caller's words as speech: loud and varying while they speak, silent around", async () => {
    ctx.sandbox.calls.setParty(callee, {
      steps: [
        { on: { verb: "Connect" }, after: "500ms", say: words },
        { on: { verb: "Connect" }, after: "4s", hangup: true },
      ],
    });
    const app = await w.app();
    await w.place(connectMarkup(app.url()));
    await w.run();
    const media = app.messages("media");
    const rms = media.map((m) => payloadRms(m.media.payload));
    const at = (ms: number) => rms.slice(ms / 20);
    // Before the words and after their 2.4 s: digital silence.
    expect(Math.max(...rms.slice(0, 25))).toBe(0);
    expect(Math.max(...at(2900))).toBe(0);
    // The words: most frames loud, the loudness moving with the syllables (no steady tone), pauses between.
    const spoken = rms.slice(25, 25 + 80);
    expect(spoken[0]).toBeGreaterThan(0);
    const loud = spoken.filter((v) => v > 300).length;
    expect(loud / spoken.length).toBeGreaterThan(0.5);
    const mean = spoken.reduce((a, b) => a + b, 0) / spoken.length;
    const spread = Math.sqrt(spoken.reduce((a, b) => a + (b - mean) ** 2, 0) / spoken.length);
    expect(spread / mean).toBeGreaterThan(0.3);
  });

  it("the app's audio is recorded as the caller's other side, sample for sample; the caller's words beside it", async () => {
    const app = await w.app((message: StreamMessage, connection) => {
      if (message.event === "start") {
        connection.send({
          event: "media",
          streamSid: message.streamSid,
          media: { payload: appAudio.toString("base64") },
        });
        connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: "played" } });
      }
      if (message.event === "mark") connection.socket.close();
    });
    ctx.sandbox.calls.setParty(callee, {
      steps: [{ on: { verb: "Connect" }, after: "500ms", say: "Thanks", for: "400ms" }],
    });
    const client = ctx.twilioClient();
    const call = await client.calls.create({
      to: callee,
      from: fixtures.acme.mainNumber,
      twiml: connectMarkup(app.url()),
      record: true,
      recordingChannels: "dual",
    });
    await w.run();
    const [recording] = await client.recordings.list({ callSid: call.sid });
    expect(recording?.status).toBe("completed");
    const response = await fetch(`${ctx.baseUrl}${base}/Recordings/${recording!.sid}.wav`, {
      headers: { authorization: `Basic ${Buffer.from(acmeAuth.basic.join(":")).toString("base64")}` },
    });
    const wav = Buffer.from(await response.arrayBuffer());
    expect(wav.readUInt16LE(22)).toBe(2);
    const frames = wav.readUInt32LE(40) / 4;
    const channel = (c: number) =>
      Int16Array.from({ length: frames }, (_, i) => wav.readInt16LE(44 + i * 4 + c * 2));
    const caller = channel(0);
    const other = channel(1);
    // Channel 2 holds the app's second of audio exactly as it decodes, once, and nothing else.
    const decoded = alawmulaw.mulaw.decode(appAudio);
    const first = other.findIndex((v) => v !== 0);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(Array.from(other.subarray(first, first + decoded.length))).toEqual(Array.from(decoded));
    expect(other.subarray(first + decoded.length).every((v) => v === 0)).toBe(true);
    // The caller's "Thanks" on channel 1, half a second into the stream, while the app's audio plays.
    const spoke = caller.findIndex((v) => v !== 0);
    expect(spoke).toBeGreaterThan(first);
    expect((spoke - first) / 8).toBeGreaterThanOrEqual(400);
    expect((spoke - first) / 8).toBeLessThan(600);
  });
});

describe("stream speech determinism", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("the same scripted call gives the same inbound frames, byte for byte, run after run (virtual clock)", async () => {
    const app = await startStreamApp();
    cleanups.push(() => app.close());
    const runs: string[][] = [];
    for (let i = 0; i < 2; i++) {
      // The app only listens: the caller's words wait half a second for an answer that does not come.
      const sandbox = createSandbox({ agentTurnTimeout: "500ms" });
      cleanups.push(() => sandbox.reset());
      sandbox.calls.setParty(callee, {
        steps: [
          { on: { verb: "Connect" }, after: "200ms", say: words },
          { on: { verb: "Connect" }, after: "3s", hangup: true },
        ],
      });
      await placeWithTwiml(sandbox, callee, connectMarkup(app.url()));
      await sandbox.clock.runUntilIdle();
      await sandbox.settle();
      runs.push(app.connections[i]!.messages.filter((m) => m.event === "media").map((m) => m.media.payload));
    }
    expect(runs[0]!.filter((payload) => payloadRms(payload) > 300).length).toBeGreaterThan(40);
    expect(runs[1]).toEqual(runs[0]);
  });
});
