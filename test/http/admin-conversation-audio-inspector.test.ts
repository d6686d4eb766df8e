// The inspector's call page in Chromium: a call with a <Connect> app offers its conversation audio (fetched with the admin token), to play or download.
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { type RunningInspector, startInspector } from "../../src/inspector/index.js";
import { type LaunchedBrowser, launchBrowser, noBrowserReason } from "../support/browser.js";
import { type StreamApp, startStreamApp } from "../support/stream-app.js";
import { callee, placeWithTwiml } from "../support/stream-world.js";
import { readWav } from "../support/wav-file.js";

const { VoiceResponse } = twilio.twiml;
const adminToken = "conversation-inspector-token";

describe.skipIf(noBrowserReason !== null)(
  `conversation audio in the inspector${noBrowserReason ? ` (skipped: ${noBrowserReason})` : ""}`,
  { timeout: 60_000 },
  () => {
    let sandbox: Sandbox;
    let app: StreamApp;
    let inspector: RunningInspector;
    let launched: LaunchedBrowser;
    let withAgent = "";
    let without = "";

    beforeAll(async () => {
      sandbox = createSandbox({ adminToken });
      app = await startStreamApp((message, connection) => {
        if (message.event === "start") {
          const payload = Buffer.alloc(4000, 0x20).toString("base64");
          connection.send({ event: "media", streamSid: message.streamSid, media: { payload } });
          connection.send({ event: "mark", streamSid: message.streamSid, mark: { name: "done" } });
        }
        if (message.event === "mark") connection.socket.close();
      });
      const r = new VoiceResponse();
      r.connect().stream({ url: app.url() });
      r.say("Goodbye");
      withAgent = await placeWithTwiml(sandbox, callee, r.toString());
      without = await placeWithTwiml(sandbox, callee, "<Response><Say>No agent here</Say></Response>");
      await sandbox.clock.runUntilIdle();
      await sandbox.settle();
      inspector = await startInspector(sandbox);
      launched = await launchBrowser();
    }, 30_000);

    /** A page that has been given the admin token (the sandbox asks for it). */
    const signedIn = async () => {
      const page = await launched.context.newPage();
      await page.goto(`${inspector.url}#/controls`);
      await page.getByLabel("Admin token").fill(adminToken);
      await page.getByRole("button", { name: "Use token" }).click();
      return page;
    };

    afterAll(async () => {
      await launched?.close();
      await inspector?.close();
      await app?.close();
    });

    it("loads the WAV with the token, plays it for its length, and offers it as a download", async () => {
      const page = await signedIn();
      await page.goto(`${inspector.url}#/calls/${withAgent}`);
      await page.getByRole("heading", { name: "Conversation audio" }).waitFor();
      await page.getByRole("button", { name: "Load conversation audio" }).click();
      const audio = page.getByLabel(`Conversation audio of call ${withAgent}`);
      await audio.waitFor();
      const played = await audio.evaluate(async (element: HTMLAudioElement) => {
        if (element.readyState < 1) {
          await new Promise((resolve) => element.addEventListener("loadedmetadata", resolve, { once: true }));
        }
        return { duration: element.duration, error: element.error?.code ?? null };
      });
      const wav = readWav((await sandbox.calls.conversationAudio(withAgent))!);
      expect(played.error).toBeNull();
      expect(played.duration).toBeCloseTo(wav.frames / 8000, 2);
      const link = page.getByRole("link", { name: "Download WAV" });
      expect(await link.getAttribute("download")).toBe(`${withAgent}-conversation.wav`);
      expect(await link.getAttribute("href")).toMatch(/^blob:/);
      await page.close();
    });

    it("offers nothing on a call without a <Connect> app", async () => {
      const page = await signedIn();
      await page.goto(`${inspector.url}#/calls/${without}`);
      await page.getByRole("heading", { name: "Recordings" }).waitFor();
      expect(await page.getByRole("heading", { name: "Conversation audio" }).count()).toBe(0);
      await page.close();
    });
  },
);
