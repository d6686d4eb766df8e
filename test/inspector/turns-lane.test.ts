// The inspector's turns lane in Chromium: a media-stream agent of known latency and stop time, its turns shown live with their figures as text.
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { type RunningInspector, startInspector } from "../../src/inspector/index.js";
import { seriousViolations } from "../support/axe.js";
import { type LaunchedBrowser, launchBrowser, noBrowserReason } from "../support/browser.js";
import { placeWithTwiml } from "../support/stream-world.js";
import { randomThink, type StreamAgent, startStreamAgent } from "../support/voice-agent-apps.js";

/** The docs' picture of the lane is written only when asked (scripts/screenshots.mjs), so a test run leaves the tree as it was. */
const screenshotFile = process.env.VOICE_SANDBOX_SCREENSHOTS
  ? fileURLToPath(new URL("../../docs/images/inspector-turns.png", import.meta.url))
  : null;

const callee = "+14155550123";
const other = "+14155550124";
const hostile = `<img src=x onerror="alert(1)"><b>bold</b>`;

describe.skipIf(noBrowserReason !== null)(
  `the turns lane in the inspector${noBrowserReason ? ` (skipped: ${noBrowserReason})` : ""}`,
  { timeout: 60_000 },
  () => {
    let sandbox: Sandbox;
    let agent: StreamAgent;
    let inspector: RunningInspector;
    let launched: LaunchedBrowser;

    beforeAll(async () => {
      sandbox = createSandbox();
      // However long it thinks (0-300 ms of real time), each answer starts 220 ms after the caller's words
      // end (one frame, then 200 ms of lead-in silence); it clears after five frames of the caller's voice.
      agent = await startStreamAgent({
        think: randomThink(300),
        leadInFrames: 10,
        answerFrames: 25,
        clearAfterFrames: 5,
      });
      inspector = await startInspector(sandbox);
      launched = await launchBrowser();
    }, 30_000);

    afterAll(async () => {
      await launched?.close();
      await inspector?.close();
      await agent?.close();
    });

    const connect = () => `<Response><Connect><Stream url="${agent.url()}"/></Connect></Response>`;
    const lane = (page: Page) => page.getByRole("region", { name: "Agent turns", exact: true });
    const table = (page: Page) => page.getByRole("table", { name: "Agent turns, one row per caller turn" });
    /** The text of each cell of a turn's row, by column heading. */
    const rowOf = async (page: Page, n: number) => {
      const headings = await table(page).locator("thead th").allTextContents();
      const cells = await table(page)
        .getByRole("row", { name: new RegExp(`^Turn ${n}\\b`) })
        .locator("th, td")
        .allTextContents();
      return Object.fromEntries(headings.map((h, i) => [h, cells[i]]));
    };
    const figure = async (page: Page, term: string) =>
      (await lane(page)
        .locator("dt", { hasText: term })
        .locator("xpath=following-sibling::dd")
        .textContent())!;

    it("shows each turn as it comes, with its latency, speaking, barge-in stop and talk-over as text", async () => {
      sandbox.calls.setParty(callee, {
        ringAfter: 0,
        answerAfter: 0,
        steps: [
          { say: "hello there", for: "1s" },
          // 300 ms after the agent's answer starts playing: 100 ms into its voice, the caller talks over it.
          { agent: "talking", after: "300ms", say: "stop", for: "600ms" },
          { say: "thanks", for: "500ms" },
          { hangup: true },
        ],
      });
      const sid = await placeWithTwiml(sandbox, callee, connect());
      const page = await launched.context.newPage();
      await page.goto(`${inspector.url}#/calls/${sid}`);
      await page.getByRole("heading", { name: "Timeline" }).waitFor();
      // Marks this page load: still there at the end means the lane came without a reload.
      await page.evaluate(() => Object.assign(window, { sameLoad: true }));
      expect(await lane(page).count()).toBe(0);

      await sandbox.clock.runUntilIdle();
      await sandbox.settle();
      await table(page)
        .getByRole("row", { name: /^Turn 3\b/ })
        .waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => (window as unknown as { sameLoad?: boolean }).sameLoad)).toBe(true);

      expect(await table(page).locator("tbody tr").count()).toBe(3);
      expect(await rowOf(page, 1)).toMatchObject({
        "Caller said": "hello there",
        "Caller's turn": expect.stringMatching(/ – /),
        "Response latency": "220 ms",
        "Agent speaking": "120 ms",
        "Barge-in stop": "—",
        "Talk-over": "0 ms",
        Outcome: "answered",
      });
      expect(await rowOf(page, 2)).toMatchObject({
        "Caller said": "stop",
        "Response latency": "220 ms",
        "Agent speaking": "600 ms",
        "Barge-in stop": "100 ms (cut)",
        "Talk-over": "100 ms",
        Outcome: "answered",
      });
      expect(await rowOf(page, 3)).toMatchObject({
        "Response latency": "220 ms",
        "Agent speaking": "500 ms",
      });
      expect(await figure(page, "Turns")).toBe("3");
      expect(await figure(page, "Response latency p50")).toBe("220 ms");
      expect(await figure(page, "Response latency p95")).toBe("220 ms");
      expect(await figure(page, "Max barge-in stop")).toBe("100 ms");
      expect(await figure(page, "Longest silence")).toBe("1020 ms");
      // The picture's marks say what they are, and the lane reads as text.
      expect(await lane(page).locator("svg title", { hasText: "turn 2: barge-in" }).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      // The lane alone, as checked above: the picture in docs/inspector.md and docs/voice-agents.md.
      if (screenshotFile) {
        // Wide enough for the whole table: the page's column (1200 px at most) is let out for the picture only.
        await page.setViewportSize({ width: 1360, height: 800 });
        await page.evaluate(() => {
          document.querySelector("main")!.style.maxWidth = "none";
        });
        await lane(page).screenshot({ path: screenshotFile });
      }
      // On a narrow screen the table scrolls inside its own box, which the keyboard can reach.
      await page.setViewportSize({ width: 380, height: 800 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await lane(page).locator(".table-wrap").getAttribute("tabindex")).toBe("0");
      await page.close();
    });

    it("shows no lane for a call without a <Connect> app", async () => {
      const sid = await placeWithTwiml(sandbox, other, "<Response><Say>No agent here</Say></Response>");
      await sandbox.clock.runUntilIdle();
      await sandbox.settle();
      const page = await launched.context.newPage();
      const turns = page.waitForResponse((res) => res.url().endsWith(`/calls/${sid}/turns`));
      await page.goto(`${inspector.url}#/calls/${sid}`);
      expect(await (await turns).json()).toMatchObject({ agent: false, total: 0 });
      await page.getByRole("heading", { name: "Recordings" }).waitFor();
      expect(await page.getByRole("heading", { name: "Agent turns" }).count()).toBe(0);
      await page.close();
    });

    it("shows the caller's words with markup in them as text", async () => {
      sandbox.calls.setParty(callee, {
        ringAfter: 0,
        answerAfter: 0,
        steps: [{ say: hostile, for: "1s" }, { hangup: true }],
      });
      const sid = await placeWithTwiml(sandbox, callee, connect());
      await sandbox.clock.runUntilIdle();
      await sandbox.settle();
      const page = await launched.context.newPage();
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${inspector.url}#/calls/${sid}`);
      await table(page)
        .getByRole("row", { name: /^Turn 1\b/ })
        .waitFor();
      expect((await rowOf(page, 1))["Caller said"]).toBe(hostile);
      expect(await lane(page).locator("img, b").count()).toBe(0);
      expect(dialogs).toEqual([]);
      await page.close();
    });
  },
);
