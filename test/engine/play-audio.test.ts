// A <Play> the browser phone hears: the file's own audio when the sandbox can fetch it, the tone otherwise.
import { describe, expect, it } from "vitest";
import { wavFile } from "../../src/engine/recordings/recording-audio.js";
import { createPlayMedia } from "../../src/inspector/play-media.js";
import { useEngine } from "./harness.js";

const sine = (hz: number, ms: number) =>
  Int16Array.from({ length: ms * 8 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / 8000)));
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("a <Play> as the browser phone hears it", () => {
  const h = useEngine();
  const sandbox = () => h.door.sandbox;

  it("carries the fetched WAV's samples, and keeps the tone for a URL that 404s", async () => {
    const wav = wavFile([sine(300, 1000)]);
    sandbox().webhooks.register("https://media.example.test/", (request) =>
      request.url.endsWith("/tone.wav")
        ? { headers: { "content-type": "audio/wav" }, body: wav }
        : { status: 404, body: "no" },
    );
    const media = createPlayMedia(sandbox().webhooks);
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      "<Response><Play>https://media.example.test/tone.wav</Play><Play>https://media.example.test/missing.wav</Play></Response>",
    );
    const sid = await h.ringMainNumber();
    await sandbox().clock.advance(200);
    const start = sandbox().store.calls.get(sid)!;
    expect(start.status).toBe("in-progress");
    const at = sandbox().clock.now();
    const before = Buffer.from(sandbox().calls.audio.heard(sid, at, media)!);
    // The fetch runs off the engine's path: the file's audio replaces the tone once it has come.
    await expect
      .poll(() => Buffer.from(sandbox().calls.audio.heard(sid, at, media)!).equals(before))
      .toBe(false);
    await sandbox().clock.advance(5000);
    const at2 = sandbox().clock.now();
    const tone = sandbox().calls.audio.heard(sid, at2)!;
    sandbox().calls.audio.heard(sid, at2, media);
    await settle();
    expect(Buffer.from(sandbox().calls.audio.heard(sid, at2, media)!).equals(Buffer.from(tone))).toBe(true);
  });

  it("in a queue, plays a waitUrl's fetchable WAV instead of the hold tune", async () => {
    const wav = wavFile([sine(300, 1000)]);
    sandbox().webhooks.register("https://media.example.test/hold.wav", () => ({ body: wav }));
    const media = createPlayMedia(sandbox().webhooks);
    await h.routeMainNumber("/voice");
    h.app.on("/voice", '<Response><Enqueue waitUrl="/wait">support</Enqueue></Response>');
    h.app.on("/wait", "<Response><Play>https://media.example.test/hold.wav</Play></Response>");
    const sid = await h.ringMainNumber();
    await sandbox().clock.advance(300);
    expect(sandbox().store.queueMembers.get(sid)).toBeDefined();
    const at = sandbox().clock.now();
    const hold = Buffer.from(sandbox().calls.audio.heard(sid, at, media)!);
    await expect
      .poll(() => Buffer.from(sandbox().calls.audio.heard(sid, at, media)!).equals(hold))
      .toBe(false);
    const heard = sandbox().calls.audio.heard(sid, at, media)!;
    expect(heard.some((b) => b !== 0xff)).toBe(true);
  });
});
