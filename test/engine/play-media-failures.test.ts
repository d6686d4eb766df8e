// What a <Play> file's fetch and decoding refuse (the browser phone then keeps its tone): other schemes, error answers, bodies past the cap, slow URLs, files that are no WAV; and what the decoder reads.
import alawmulaw from "alawmulaw";
import { afterEach, describe, expect, it } from "vitest";
import { wavFile } from "../../src/engine/recordings/recording-audio.js";
import { decodeMp3 } from "../../src/engine/speech/mp3-decode.js";
import { decodeWav } from "../../src/engine/speech/wav-decode.js";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { createPlayMedia } from "../../src/inspector/play-media.js";

const sine = (hz: number, rate: number, ms: number) =>
  Int16Array.from({ length: (ms * rate) / 1000 }, (_, i) =>
    Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / rate)),
  );

/** A WAV of `samples` at `rate` with `channels` interleaved copies, in format `code` (1 PCM, 6 a-law, 7 mu-law). */
function wav(samples: Int16Array, rate: number, channels: number, code: 1 | 6 | 7): Uint8Array {
  const bytesPerSample = code === 1 ? 2 : 1;
  const data = Buffer.alloc(samples.length * channels * bytesPerSample);
  const encoded =
    code === 7 ? alawmulaw.mulaw.encode(samples) : code === 6 ? alawmulaw.alaw.encode(samples) : null;
  for (let i = 0; i < samples.length; i++)
    for (let c = 0; c < channels; c++) {
      const at = (i * channels + c) * bytesPerSample;
      if (encoded) data[at] = encoded[i]!;
      else data.writeInt16LE(samples[i]!, at);
    }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(code, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * bytesPerSample, 28);
  header.writeUInt16LE(channels * bytesPerSample, 32);
  header.writeUInt16LE(bytesPerSample * 8, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const loudness = (mulaw: Uint8Array) => {
  const pcm = alawmulaw.mulaw.decode(mulaw);
  return pcm.reduce((sum, v) => sum + Math.abs(v), 0) / Math.max(1, pcm.length);
};

describe("decoding a <Play> file", () => {
  it("reads PCM, mu-law and a-law at any rate and channel count as 8 kHz mono mu-law", () => {
    for (const [rate, channels, code] of [
      [8000, 1, 1],
      [16000, 2, 1],
      [44100, 1, 1],
      [8000, 1, 7],
      [8000, 2, 6],
    ] as const) {
      const out = decodeWav(wav(sine(300, rate, 500), rate, channels, code));
      expect(out, `${rate} Hz, ${channels} channels, format ${code}`).not.toBeNull();
      expect(Math.abs(out!.length - 4000)).toBeLessThanOrEqual(8);
      expect(loudness(out!)).toBeGreaterThan(3000);
    }
  });

  it("refuses what is no WAV it can read: text, a cut header, MP3 bytes, another format", () => {
    const good = wav(sine(300, 8000, 100), 8000, 1, 1);
    const float = Buffer.from(good);
    float.writeUInt16LE(3, 20);
    for (const bytes of [
      new TextEncoder().encode("<html>not audio</html>"),
      good.subarray(0, 20),
      Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, 0xff, 0xfb, 0x90, 0x64]),
      float,
      new Uint8Array(0),
    ])
      expect(decodeWav(bytes)).toBeNull();
  });
});

describe("decoding a <Play> MP3", () => {
  /** `samples` at `rate` as MP3, by LAME (the encoder the sandbox's recordings use). */
  async function mp3(samples: Int16Array, rate: number): Promise<Uint8Array> {
    const lame = await import("@breezystack/lamejs");
    const encoder = new lame.Mp3Encoder(1, rate, 64);
    return Buffer.concat([new Uint8Array(encoder.encodeBuffer(samples)), new Uint8Array(encoder.flush())]);
  }

  it("reads an MP3 at 44.1 and 8 kHz as 8 kHz mono mu-law, and refuses what is no MP3", async () => {
    for (const rate of [44100, 8000]) {
      const out = await decodeMp3(await mp3(sine(300, rate, 1000), rate));
      expect(out, `${rate} Hz`).not.toBeNull();
      // A second, give or take the encoder's padding (a frame or two).
      expect(out!.length).toBeGreaterThan(7000);
      expect(out!.length).toBeLessThan(10_000);
      expect(loudness(out!.subarray(2000, 6000))).toBeGreaterThan(2000);
    }
    expect(await decodeMp3(new TextEncoder().encode("<html>not audio</html>"))).toBeNull();
    expect(await decodeMp3(Uint8Array.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3]))).toBeNull();
  });
});

describe("fetching a <Play> file", () => {
  let sandbox: Sandbox;
  afterEach(() => sandbox?.reset());
  const fetchOf = (url: string, maxBytes = 1024, timeoutMs = 2000) =>
    sandbox.webhooks.fetchMedia({ url, maxBytes, timeoutMs });

  it("refuses other schemes, error answers, bodies past the cap and URLs slower than the timeout; never rejects", async () => {
    sandbox = createSandbox();
    sandbox.webhooks.register("https://media.example.test/", (request) => {
      const path = new URL(request.url).pathname;
      if (path === "/big.wav") return { body: new Uint8Array(4096) };
      if (path === "/slow.wav") return new Promise(() => undefined);
      if (path === "/broken.wav") throw new Error("receiver broke");
      if (path === "/ok.wav") return { headers: { "content-type": "audio/wav" }, body: new Uint8Array(16) };
      return { status: 404, body: "no" };
    });
    expect(await fetchOf("file:///etc/passwd")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/http/),
    });
    expect(await fetchOf("not a url")).toMatchObject({ ok: false });
    expect(await fetchOf("https://media.example.test/missing.wav")).toEqual({ ok: false, error: "HTTP 404" });
    expect(await fetchOf("https://media.example.test/big.wav")).toEqual({
      ok: false,
      error: "larger than 1024 bytes",
    });
    expect(await fetchOf("https://media.example.test/slow.wav", 1024, 50)).toEqual({
      ok: false,
      error: "timed out after 50 ms",
    });
    expect(await fetchOf("https://media.example.test/broken.wav")).toEqual({
      ok: false,
      error: "receiver broke",
    });
    expect(await fetchOf("https://media.example.test/ok.wav")).toMatchObject({
      ok: true,
      contentType: "audio/wav",
    });
  });

  it("gives no audio for a file it could not fetch or decode, and the file's audio for one it could (WAV or MP3)", async () => {
    sandbox = createSandbox();
    const audio = wavFile([sine(300, 8000, 200)]);
    const lame = await import("@breezystack/lamejs");
    const encoder = new lame.Mp3Encoder(1, 8000, 32);
    const song = Buffer.concat([
      new Uint8Array(encoder.encodeBuffer(sine(440, 8000, 1000))),
      new Uint8Array(encoder.flush()),
    ]);
    sandbox.webhooks.register("https://media.example.test/", (request) => {
      if (request.url.endsWith("/tone.wav")) return { body: audio };
      if (request.url.endsWith("/song.mp3")) return { headers: { "content-type": "audio/mpeg" }, body: song };
      return { body: "<html>a page, not audio</html>" };
    });
    const media = createPlayMedia(sandbox.webhooks);
    for (const url of ["https://media.example.test/page.wav", "https://media.example.test/tone.wav"])
      expect(media.audioOf(url)).toBeUndefined();
    await expect.poll(() => media.audioOf("https://media.example.test/tone.wav")?.length).toBe(1600);
    expect(media.audioOf("https://media.example.test/page.wav")).toBeUndefined();
    expect(media.audioOf("https://media.example.test/song.mp3")).toBeUndefined();
    await expect
      .poll(() => media.audioOf("https://media.example.test/song.mp3")?.length ?? 0)
      .toBeGreaterThan(7000);
  });
});
