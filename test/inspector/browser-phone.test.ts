// The browser phone in Chromium with fake media devices: a synthesized sentence is the microphone, a WebAudio analyser the ear.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import alawmulaw from "alawmulaw";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingWav, wavFile } from "../../src/engine/recordings/recording-audio.js";
import { loadSpeech, speechSamples } from "../../src/engine/speech/speech-audio.js";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { type RunningInspector, startInspector } from "../../src/inspector/index.js";
import { rms } from "../support/audio-energy.js";
import { type LaunchedBrowser, launchBrowser, noBrowserReason } from "../support/browser.js";
import { fixtures } from "../support/fixtures.js";
import { type StreamApp, type StreamMessage, startStreamApp } from "../support/stream-app.js";
import { placeWithTwiml } from "../support/stream-world.js";
import { readWav } from "../support/wav-file.js";

const screenshotFolder = process.env.VOICE_SANDBOX_SCREENSHOTS
  ? fileURLToPath(new URL("../../docs/images/", import.meta.url))
  : null;
const app = "https://app.example.test";
const token = "browser-phone-token";
const caller = "+14155550177";
const sentence = "Hello, I would like to book a table for two tonight.";

/** 20 ms of a loud 400 Hz tone as mu-law: what the app says. */
const toneFrame = Buffer.from(
  alawmulaw.mulaw.encode(
    Int16Array.from({ length: 160 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 400 * i) / 8000))),
  ),
).toString("base64");

/** RMS of a base64 mu-law payload. */
const energy = (payload: string) => rms(alawmulaw.mulaw.decode(Buffer.from(payload, "base64")));

const until = async (check: () => boolean | Promise<boolean>) => {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
};

describe.skipIf(noBrowserReason !== null)(
  `the browser phone in Chromium${noBrowserReason ? ` (skipped: ${noBrowserReason})` : ""}`,
  { timeout: 60_000 },
  () => {
    let sandbox: Sandbox;
    let inspector: RunningInspector;
    let launched: LaunchedBrowser;
    let streamApp: StreamApp;
    let page: Page;
    let folder = "";
    let talk = true;

    beforeAll(async () => {
      // The microphone: the sandbox's own voice saying the sentence, then a second of silence (Chromium loops it).
      await loadSpeech();
      const said = speechSamples(sentence, "caller", 3500);
      const samples = new Int16Array(said.length + 8000);
      samples.set(said);
      folder = await mkdtemp(join(tmpdir(), "voice-sandbox-mic-"));
      const wav = join(folder, "sentence.wav");
      await writeFile(wav, wavFile([samples]));
      streamApp = await startStreamApp((message: StreamMessage, connection) => {
        if (message.event !== "media" || !talk) return;
        connection.send({ event: "media", streamSid: message.streamSid, media: { payload: toneFrame } });
      });
      sandbox = createSandbox({ adminToken: token, clock: "real" });
      const line = sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
      sandbox.store.phoneNumbers.replace({ ...line, voice_url: `${app}/voice` });
      sandbox.webhooks.register(
        `${app}/`,
        () => `<Response><Connect><Stream url="${streamApp.url()}"/></Connect></Response>`,
      );
      inspector = await startInspector(sandbox);
      launched = await launchBrowser({
        args: [
          "--use-fake-device-for-media-stream",
          "--use-fake-ui-for-media-stream",
          `--use-file-for-fake-audio-capture=${wav}`,
          "--autoplay-policy=no-user-gesture-required",
        ],
      });
      page = await launched.context.newPage();
      // The page keeps the admin token in its session, as after the token prompt.
      await page.addInitScript((value) => sessionStorage.setItem("voice-sandbox.admin-token", value), token);
    });
    afterAll(async () => {
      await launched?.close();
      await inspector?.close();
      await streamApp?.close();
      sandbox?.clock.dispose();
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    const level = () =>
      page.locator('meter[aria-label="Call level"]').getAttribute("data-level").then(Number);

    it("plays what the app says and goes silent after clear; the microphone reaches the app and the recording", async () => {
      const call = sandbox.calls.ring({ from: caller, to: fixtures.acme.mainNumber });
      await until(() => streamApp.messages("start").some((m) => m.start.callSid === call.sid));
      await page.goto(`${inspector.url}#/calls/${call.sid}`);
      await page.getByRole("button", { name: "Listen" }).click();
      await page.getByText("Audio: open").waitFor({ timeout: 30_000 });
      // Heard: the page's analyser sees the app's tone.
      await until(async () => (await level()) > 0.05);

      // Silent after clear: the app stops and clears its queue.
      talk = false;
      const connection = streamApp.connections.at(-1)!;
      connection.send({
        event: "clear",
        streamSid: connection.messages.find((m) => m.event === "start")!.streamSid,
      });
      await until(async () => (await level()) < 0.001);

      // Spoken: the microphone's sentence becomes the caller's frames, and a recording keeps it on the caller's channel.
      const recording = sandbox.calls.recordings.start(call.sid, {
        channels: 2,
        track: "both",
        trim: false,
        statusCallback: null,
        statusCallbackMethod: "POST",
        statusCallbackEvents: [],
      });
      const before = streamApp.messages("media").length;
      await page.getByRole("button", { name: "Microphone on" }).click();
      await page.getByText("microphone on").waitFor({ timeout: 30_000 });
      const callerEnergy = () =>
        streamApp
          .messages("media")
          .slice(before)
          .filter((m) => m.media.track === "inbound")
          .map((m) => energy(m.media.payload));
      // The sentence's words and its pauses: loud frames, then quiet ones, then loud again (the file loops).
      await until(() => {
        const e = callerEnergy();
        const firstLoud = e.findIndex((v) => v > 1000);
        const quietAfter = firstLoud < 0 ? -1 : e.findIndex((v, i) => i > firstLoud && v < 100);
        return quietAfter > 0 && e.some((v, i) => i > quietAfter + 10 && v > 1000);
      });
      if (screenshotFolder) {
        await page.getByRole("heading", { name: "Browser phone" }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${screenshotFolder}inspector-browser-phone.png` });
      }
      const stopped = sandbox.calls.recordings.update(call.sid, recording.sid, { status: "stopped" });
      const wav = readWav(await recordingWav(sandbox.store.recordings.get(stopped.sid)!));
      const callerChannel = wav.channel(0);
      const windows = [];
      for (let at = 0; at + 160 <= callerChannel.length; at += 160) {
        windows.push(rms(callerChannel.subarray(at, at + 160)));
      }
      expect(Math.max(...windows)).toBeGreaterThan(1000);
      sandbox.calls.hangup(call.sid);
      await page.getByText(/Audio: closed/).waitFor({ timeout: 30_000 });
    });

    it("rings the page for a call placed through the API to the client it holds; answered there, it hears the call", async () => {
      await page.goto(`${inspector.url}#/phone`);
      await page.getByLabel("Address").fill("client:alice");
      await page.getByRole("button", { name: "Hold" }).click();
      await page.getByText("Phone: holding client:alice").waitFor({ timeout: 30_000 });
      const sid = await placeWithTwiml(
        sandbox,
        "client:alice",
        '<Response><Say loop="20">Your table for two is ready.</Say></Response>',
      );
      await page.getByText(`${fixtures.acme.mainNumber} → client:alice`).waitFor({ timeout: 30_000 });
      expect(sandbox.store.calls.get(sid)!.status).toBe("ringing");
      if (screenshotFolder) await page.screenshot({ path: `${screenshotFolder}inspector-be-called.png` });
      await page.getByRole("button", { name: "Answer" }).click();
      await until(() => sandbox.store.calls.get(sid)!.status === "in-progress");
      // The answered call's audio plays on the page: the sandbox's speech for the <Say>.
      await page.getByText("Audio: open").waitFor({ timeout: 30_000 });
      await until(async () => (await level()) > 0.02);
      await page.getByRole("button", { name: "Hang up" }).click();
      await until(() => sandbox.store.calls.get(sid)!.status === "completed");
      await page.getByText(/ended \(completed\)/).waitFor({ timeout: 30_000 });
    });
  },
);
