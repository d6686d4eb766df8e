// Recordings carry the words said on the call as synthesized speech: fetched like a user, measured window by window.
import { parseBuffer } from "music-metadata";
import { describe, expect, it } from "vitest";
import { windowRms } from "../support/audio-energy.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;
const customer = "+15558675310";
const voiceUrl = "https://app.example.com/voice";
/** Nine words: the timing model gives them 3.6 s (400 ms a word). */
const sentence = "The quick brown fox jumps over the lazy dog.";
/** Seven words the callee says 4.5 s after answering: 2.8 s, so 4.5-7.3 s into the recording. */
const reply = "I would like to check my balance.";

/** The windows of [fromS, toS) seconds. */
const between = (rms: number[], fromS: number, toS: number) => rms.slice(fromS * 50, toS * 50);
/** Speech, not silence: loud enough in most windows... */
const loud = 300;
/** ...and silence is digital silence here (nothing but the words is mixed in). */
const silent = 1;

function expectSpeech(rms: number[], label: string) {
  const voiced = rms.filter((v) => v > loud).length;
  expect(voiced / rms.length, label).toBeGreaterThan(0.5);
  // Words and the gaps between them: the loudness moves, as no steady tone's does.
  const mean = rms.reduce((a, b) => a + b, 0) / rms.length;
  const spread = Math.sqrt(rms.reduce((a, b) => a + (b - mean) ** 2, 0) / rms.length);
  expect(spread / mean, label).toBeGreaterThan(0.3);
  expect(
    rms.some((v) => v < mean / 4),
    `${label}: pauses between words`,
  ).toBe(true);
}

function expectSilence(rms: number[], label: string) {
  expect(Math.max(...rms), label).toBeLessThan(silent);
}

/** The fields of a canonical 44-byte PCM WAV header, and its samples per channel. */
function readWav(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  const header = {
    riff: text(0),
    wave: text(8),
    format: view.getUint16(20, true),
    channels: view.getUint16(22, true),
    rate: view.getUint32(24, true),
    byteRate: view.getUint32(28, true),
    bits: view.getUint16(34, true),
    data: text(36),
    dataBytes: view.getUint32(40, true),
  };
  const frames = header.dataBytes / (header.channels * 2);
  const channels = Array.from({ length: header.channels }, () => new Int16Array(frames));
  for (let frame = 0; frame < frames; frame++) {
    for (let c = 0; c < header.channels; c++) {
      channels[c]![frame] = view.getInt16(44 + (frame * header.channels + c) * 2, true);
    }
  }
  return { header, channels };
}

/** The first MPEG audio frame header's fields. */
function readMp3Header(bytes: Uint8Array) {
  const [b0, b1, b2, b3] = bytes;
  return {
    sync: b0 === 0xff && (b1! & 0xe0) === 0xe0,
    version: (b1! >> 3) & 0b11, // 00: MPEG-2.5
    layer: (b1! >> 1) & 0b11, // 01: Layer III
    bitrateIndex: b2! >> 4,
    sampleRateIndex: (b2! >> 2) & 0b11, // 10 under MPEG-2.5: 8000 Hz
    channelMode: b3! >> 6, // 11: mono
  };
}

describe.each(doorNames)("recording speech via %s", (door) => {
  const ctx = useDoor(door);

  /** A recorded call: the app says `sentence`, the callee answers with `reply`, the app hangs up at 10 s. */
  const recordedCall = async (channels: "mono" | "dual") => {
    ctx.sandbox.webhooks.register(
      voiceUrl,
      () => `<Response><Say>${sentence}</Say><Pause length="6"/><Hangup/></Response>`,
    );
    ctx.sandbox.calls.setParty(customer, { steps: [{ at: "4500ms", say: reply }] });
    const client = ctx.twilioClient();
    const call = await client.calls.create({
      to: customer,
      from: fixtures.acme.mainNumber,
      url: voiceUrl,
      record: true,
      // The whole call, silence included (Trim's default on a call's create is trim-silence).
      trim: "do-not-trim",
      recordingChannels: channels,
    });
    await ctx.sandbox.clock.advance(30_000);
    await ctx.sandbox.settle();
    const [recording] = await client.recordings.list({ callSid: call.sid });
    expect(recording?.status).toBe("completed");
    return recording!;
  };

  /** The recording's file as an app downloads it: the account API's URL, following its redirect. */
  const download = async (sid: string, extension: "wav" | "mp3") => {
    const response = await fetch(`${ctx.baseUrl}${base}/Recordings/${sid}.${extension}`, {
      headers: { authorization: `Basic ${Buffer.from(acmeAuth.basic.join(":")).toString("base64")}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(extension === "wav" ? "audio/x-wav" : "audio/mpeg");
    return new Uint8Array(await response.arrayBuffer());
  };

  it("a dual recording holds the <Say> sentence on channel 2 and the callee's words on channel 1, as speech", async () => {
    const recording = await recordedCall("dual");
    // Answered at 3 s, hung up after the 3.6 s sentence and the 6 s pause: 9.6 s, billed as 10.
    expect(recording.duration).toBe("10");
    const { header, channels } = readWav(await download(recording.sid, "wav"));
    expect(header).toEqual({
      riff: "RIFF",
      wave: "WAVE",
      format: 1,
      channels: 2,
      rate: 8000,
      byteRate: 32_000,
      bits: 16,
      data: "data",
      dataBytes: 10 * 8000 * 2 * 2,
    });
    const callee = windowRms(channels[0]!);
    const app = windowRms(channels[1]!);
    // The sentence: speech from the start, over most of its 3.6 s, then silence.
    expectSpeech(between(app, 0, 2.4), "the <Say> sentence");
    expectSilence(between(app, 3.6, 10), "channel 2 after the sentence");
    const lastVoiced = app.findLastIndex((v) => v > loud) / 50;
    expect(lastVoiced).toBeGreaterThan(2.4);
    expect(lastVoiced).toBeLessThan(3.6);
    // The callee: silence until 4.5 s, its words, silence after 7.3 s.
    expectSilence(between(callee, 0, 4.5), "channel 1 before the reply");
    expectSpeech(between(callee, 4.5, 6.3), "the callee's reply");
    expectSilence(between(callee, 7.3, 10), "channel 1 after the reply");
  });

  it("a mono recording mixes both parties into one channel; the MP3 is framed 8 kHz speech of the same length", async () => {
    const recording = await recordedCall("mono");
    const { header, channels } = readWav(await download(recording.sid, "wav"));
    expect([header.channels, header.rate, header.bits, header.dataBytes]).toEqual([
      1,
      8000,
      16,
      10 * 8000 * 2,
    ]);
    const mixed = windowRms(channels[0]!);
    expectSpeech(between(mixed, 0, 2.4), "the sentence in the mix");
    expectSilence(between(mixed, 3.6, 4.5), "the gap between the parties");
    expectSpeech(between(mixed, 4.5, 6.3), "the reply in the mix");
    expectSilence(between(mixed, 7.3, 10), "the end of the call");

    const mp3 = await download(recording.sid, "mp3");
    expect(readMp3Header(mp3)).toEqual({
      sync: true,
      version: 0,
      layer: 1,
      bitrateIndex: 2, // 16 kbit/s
      sampleRateIndex: 2,
      channelMode: 3,
    });
    const parsed = await parseBuffer(mp3, { mimeType: "audio/mpeg" }, { duration: true });
    expect(parsed.format.codec).toBe("MPEG 2.5 Layer 3");
    expect(parsed.format.sampleRate).toBe(8000);
    expect(parsed.format.numberOfChannels).toBe(1);
    expect(parsed.format.duration).toBeGreaterThanOrEqual(10);
    expect(parsed.format.duration).toBeLessThan(10.3);
  });

  it("the same call gives the same bytes, run after run", async () => {
    const first = await recordedCall("dual");
    const wav = await download(first.sid, "wav");
    const mp3 = await download(first.sid, "mp3");
    await ctx.sandbox.reset();
    const second = await recordedCall("dual");
    expect(second.sid).toBe(first.sid);
    expect(Buffer.from(await download(second.sid, "wav")).equals(Buffer.from(wav))).toBe(true);
    expect(Buffer.from(await download(second.sid, "mp3")).equals(Buffer.from(mp3))).toBe(true);
  });
});
