// Without the synthesizer package, recordings still come: a quiet tone where words are spoken, one warning, no failure.
import { afterAll, describe, expect, it, vi } from "vitest";
import { windowRms } from "../support/audio-energy.js";
import { fixtures } from "../support/fixtures.js";

const customer = "+15558675310";
const authorization = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;

/** The package as a user without it has it: importing it fails. */
vi.doMock("@echogarden/espeak-ng-emscripten", () => {
  throw new Error("Cannot find package '@echogarden/espeak-ng-emscripten'");
});
afterAll(() => {
  vi.doUnmock("@echogarden/espeak-ng-emscripten");
  vi.resetModules();
});

describe("speech synthesis unavailable", () => {
  it("a recorded <Say> becomes a steady tone for its 2.4 s, and a warning says so once", async () => {
    vi.resetModules();
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }) => {
      if (warning.code === "VOICE_SANDBOX_NO_SPEECH") warnings.push(warning.message);
    };
    process.on("warning", onWarning);
    try {
      const { createSandbox } = await import("../../src/index.js");
      const sandbox = createSandbox();
      const base = `${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}`;
      const created = await sandbox.fetch(`${base}/Calls.json`, {
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          From: fixtures.acme.mainNumber,
          To: customer,
          Twiml: "<Response><Say>Six words are spoken right here</Say><Pause length='1'/></Response>",
          Record: "true",
          // The whole call, the pause's silence included (a call's Trim defaults to trim-silence).
          Trim: "do-not-trim",
        }).toString(),
      });
      expect(created.status).toBe(201);
      await sandbox.clock.runUntilIdle();
      await sandbox.settle();
      const list = await sandbox.fetch(`${base}/Recordings.json`, { headers: { authorization } });
      const [recording] = ((await list.json()) as { recordings: { sid: string; duration: string }[] })
        .recordings;
      expect(recording?.duration).toBe("4");
      for (let i = 0; i < 2; i++) {
        const media = await sandbox.fetch(`${sandbox.baseUrl}/__sandbox/media/${recording!.sid}.wav`);
        expect(media.status).toBe(200);
        const wav = Buffer.from(await media.arrayBuffer());
        expect(wav.readUInt32LE(40)).toBe(4 * 8000 * 2);
        const samples = Int16Array.from({ length: 4 * 8000 }, (_, j) => wav.readInt16LE(44 + j * 2));
        // The tone fills the Say's 2.4 s evenly (every 20 ms window alike), then silence.
        const windows = windowRms(samples);
        // (a 1300-amplitude sine: RMS about 919, give or take the part period a window holds).
        for (const window of windows.slice(0, 2.4 * 50)) {
          expect(window).toBeGreaterThan(880);
          expect(window).toBeLessThan(960);
        }
        for (const window of windows.slice(2.4 * 50, 4 * 50)) expect(window).toBe(0);
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/@echogarden\/espeak-ng-emscripten/);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
