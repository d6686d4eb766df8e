import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { type RunningInspector, startInspector } from "../../src/inspector/index.js";
import { seriousViolations } from "../support/axe.js";
import { type LaunchedBrowser, launchBrowser, noBrowserReason } from "../support/browser.js";
import { fixtures } from "../support/fixtures.js";

/** Screenshots for the docs are written only when asked, so a test run leaves the tree as it was. */
const screenshotFolder = process.env.VOICE_SANDBOX_SCREENSHOTS
  ? fileURLToPath(new URL("../../docs/images/", import.meta.url))
  : null;

const app = "https://app.example.test";
const scenarioFile = fileURLToPath(new URL("../../scenarios/inbound-sms-auto-reply.yaml", import.meta.url));
const number = "+14155550100";
const caller = "+15005550006";

/** The customer's app, answered in-process: a menu, a voicemail, a goodbye, and an SMS auto-reply. */
function answerApp(sandbox: Sandbox) {
  sandbox.webhooks.register(`${app}/`, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/voice") {
      return `<Response><Gather numDigits="1" action="${app}/menu"><Say>Press one for sales</Say></Gather></Response>`;
    }
    if (path === "/menu") {
      return `<Response><Say>You chose ${request.params.Digits}. Leave a message.</Say><Record maxLength="4" transcribe="true" action="${app}/bye"/></Response>`;
    }
    if (path === "/bye") return "<Response><Say>Goodbye</Say><Hangup/></Response>";
    if (path === "/sms") return `<Response><Message>Got it: ${request.params.Body}</Message></Response>`;
    return "";
  });
}

async function screenshot(page: Page, name: string) {
  if (screenshotFolder) await page.screenshot({ path: `${screenshotFolder}inspector-${name}.png` });
}

const visible = (page: Page, text: string | RegExp) =>
  page.getByText(text).first().waitFor({ state: "visible", timeout: 30_000 });

describe.skipIf(noBrowserReason !== null)(
  `the inspector in Chromium${noBrowserReason ? ` (skipped: ${noBrowserReason})` : ""}`,
  // Generous limits: a loaded CI machine shares two cores between the browser, the server and the tests.
  { timeout: 60_000 },
  () => {
    let sandbox: Sandbox;
    let inspector: RunningInspector;
    let launched: LaunchedBrowser;
    let page: Page;
    let callSid = "";

    beforeAll(async () => {
      sandbox = createSandbox();
      const line = sandbox.store.phoneNumbers.findOne("number", number)!;
      sandbox.store.phoneNumbers.replace({
        ...line,
        voice_url: `${app}/voice`,
        sms_url: `${app}/sms`,
        status_callback: `${app}/status`,
      });
      answerApp(sandbox);
      inspector = await startInspector(sandbox);
      launched = await launchBrowser();
      page = await launched.context.newPage();
    }, 30_000);

    afterAll(async () => {
      await launched?.close();
      await inspector?.close();
    });

    it("rings a number from the phone, presses a digit, and the call's timeline updates live", async () => {
      await page.goto(`${inspector.url}#/phone`);
      await page.getByLabel("Caller ID").fill(caller);
      await page.getByRole("button", { name: "Ring" }).click();
      await page.getByRole("link", { name: "timeline" }).waitFor();
      callSid = sandbox.store.calls.where("status", "ringing")[0]?.sid ?? sandbox.store.calls.all()[0]!.sid;
      // Marks this page load: still there at the end means nothing reloaded.
      await page.evaluate(() => Object.assign(window, { sameLoad: true }));

      await sandbox.clock.advance(1000);
      await visible(page, "Press one for sales");
      await screenshot(page, "phone");

      await page.getByRole("button", { name: "Press 1" }).click();
      await visible(page, "Pressed 1");
      await sandbox.clock.advance(1000);
      await visible(page, "You chose 1. Leave a message.");

      await page.getByRole("link", { name: "timeline" }).click();
      await page.getByRole("heading", { name: "Timeline" }).waitFor();
      expect(await page.locator("svg title", { hasText: "pressed 1" }).count()).toBe(1);
      expect(await page.locator("svg title", { hasText: "Goodbye" }).count()).toBe(0);

      // The caller leaves a message, the app says goodbye and hangs up: the open page follows.
      sandbox.calls.speak(callSid, "please call me back tomorrow");
      await sandbox.clock.advance(10_000);
      await sandbox.settle();
      await page.locator(".summary .badge", { hasText: "completed" }).waitFor();
      await page.locator("svg title", { hasText: "Goodbye" }).waitFor({ state: "attached" });
      await page.getByRole("heading", { name: /^Recording RE/ }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { sameLoad?: boolean }).sameLoad)).toBe(true);
      expect(sandbox.store.calls.get(callSid)?.status).toBe("completed");
      await screenshot(page, "call");
    });

    it("plays the call's recording: the audio loads with the recording's duration", async () => {
      const recording = sandbox.store.recordings.where("call", callSid)[0]!;
      expect(recording.duration).toBeGreaterThan(0);
      const audio = await page.evaluate(async () => {
        const element = document.querySelector("audio")!;
        if (element.readyState < 1) {
          await new Promise((resolve) => element.addEventListener("loadedmetadata", resolve, { once: true }));
        }
        element.muted = true;
        const playing = new Promise((resolve) =>
          element.addEventListener("playing", resolve, { once: true }),
        );
        await element.play();
        await playing;
        return { duration: element.duration, paused: element.paused, error: element.error?.code ?? null };
      });
      expect(audio.error).toBeNull();
      expect(audio.paused).toBe(false);
      expect(audio.duration).toBeCloseTo(recording.duration!, 1);
    });

    it("lists calls filtered by status, and keeps the page inside a narrow screen", async () => {
      await page.goto(`${inspector.url}#/calls`);
      await page.getByRole("link", { name: `Call from ${caller} to ${number}, completed` }).waitFor();
      await screenshot(page, "calls");
      await page.getByLabel("Status").selectOption("busy");
      await visible(page, "No calls yet.");
      await page.getByLabel("Status").selectOption("completed");
      await page
        .getByRole("link", { name: /Call from/ })
        .first()
        .waitFor();
      await page.setViewportSize({ width: 380, height: 800 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1100, height: 720 });
    });

    it("texts a number from the phone and shows the app's reply", async () => {
      await page.goto(`${inspector.url}#/phone`);
      await page.getByLabel("Message").fill("hello there");
      await page.getByRole("button", { name: "Send" }).click();
      // The message is in the thread (received) before time moves on to the app's reply.
      await page.locator(".bubble", { hasText: "hello there" }).first().waitFor();
      await sandbox.clock.advance(2000);
      await sandbox.settle();
      await visible(page, "Got it: hello there");
      await page.goto(`${inspector.url}#/messages`);
      await visible(page, "Got it: hello there");
    });

    it("shows a stored URL of any other scheme as text, never as a link", async () => {
      // Below the APIs' own checks (which refuse these schemes): straight into the store.
      const message = sandbox.store.messages.all().find((m) => m.body === "hello there")!;
      const hostile = [
        "javascript:alert(document.domain)",
        "JavaScript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "/relative/cat.jpg",
      ];
      sandbox.store.messages.replace({
        ...message,
        media_urls: [...hostile, "https://cdn.example.com/cat.jpg"],
      });
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${inspector.url}#/messages`);
      const bubble = page.locator(".bubble", { hasText: "hello there" }).first();
      await bubble.locator(".unlinked").first().waitFor();
      expect(await bubble.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual([
        "https://cdn.example.com/cat.jpg",
      ]);
      expect(await bubble.locator(".unlinked code").allTextContents()).toEqual(hostile);
      await bubble.locator(".unlinked").first().click();
      // No link anywhere on the page goes anywhere but this page's own routes or an http(s) address.
      const hrefs = await page
        .locator("body [href]")
        .evaluateAll((all) => all.map((a) => a.getAttribute("href")!));
      expect(hrefs.filter((href) => !/^(#|https?:\/\/|\/)/.test(href))).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(page.url()).toContain("#/messages");
    });

    it("resends a webhook from the delivery log", async () => {
      const before = sandbox.webhooks.deliveries.length;
      await page.goto(`${inspector.url}#/webhooks`);
      const resend = page.getByRole("button", { name: `Resend call-status to ${app}/status` }).first();
      await resend.click();
      await visible(page, /^Resent as WH[0-9a-f]{32}: 200 \(success\)$/);
      expect(sandbox.webhooks.deliveries.length).toBe(before + 1);
      expect(sandbox.webhooks.deliveries.at(-1)).toMatchObject({ kind: "call-status", status: 200 });
    });

    it("shows the request journal with each request's body and answer", async () => {
      await page.goto(`${inspector.url}#/requests`);
      await page.getByText("POST /__sandbox/calls/inbound").first().click();
      await visible(page, `{"from":"${caller}","to":"${number}"}`);
      await page.getByLabel("Status").selectOption("4xx");
      await visible(page, "No requests recorded.");
    });

    it("moves the clock and plays a scenario file from Controls", async () => {
      const before = sandbox.clock.now();
      await page.goto(`${inspector.url}#/controls`);
      await page.getByLabel("Advance by").fill("1m");
      await page.getByRole("button", { name: "Advance" }).click();
      await visible(page, "Advanced by 1m");
      expect(sandbox.clock.now() - before).toBe(60_000);
      await page.getByLabel("Scenario file").setInputFiles(scenarioFile);
      await page.getByRole("button", { name: "Run scenario" }).click();
      await page.locator(".result.passed").waitFor();
      await visible(page, "an inbound SMS gets an automatic reply");
    });

    it("hangs up a live call and removes a fault: writes without a body, sent with their JSON body type", async () => {
      const call = sandbox.calls.ring({ from: caller, to: number });
      await sandbox.clock.advance(1000);
      await page.goto(`${inspector.url}#/calls/${call.sid}`);
      await page.getByRole("button", { name: "Hang up" }).click();
      await visible(page, "Hung up");
      expect(sandbox.store.calls.get(call.sid)?.status).toBe("completed");
      await page.goto(`${inspector.url}#/controls`);
      await page.getByRole("button", { name: "Add fault" }).click();
      await visible(page, "Fault added");
      const [fault] = sandbox.faults.list(sandbox.clock.now());
      await page.getByRole("button", { name: "Remove" }).click();
      await visible(page, `Removed ${fault!.id}`);
      expect(sandbox.faults.list(sandbox.clock.now())).toEqual([]);
    });

    it("has no serious accessibility violations on any page", async () => {
      const found: string[] = [];
      for (const hash of [
        "#/calls",
        `#/calls/${callSid}`,
        "#/messages",
        "#/webhooks",
        "#/requests",
        "#/phone",
        "#/controls",
      ]) {
        await page.goto(`${inspector.url}${hash}`);
        await page.locator("main h1").waitFor();
        // The live feed keeps a request open, so "loaded" means no part still says it is loading.
        await page.waitForFunction(() => document.querySelector("[aria-busy='true']") === null);
        for (const violation of await seriousViolations(page)) found.push(`${hash}: ${violation}`);
      }
      expect(found).toEqual([]);
    });

    it("asks for the admin token when the sandbox has one, and shows the state once given", async () => {
      const guarded = createSandbox({ adminToken: "inspector-secret" });
      const guardedInspector = await startInspector(guarded);
      try {
        const guardedPage = await launched.context.newPage();
        await guardedPage.goto(`${guardedInspector.url}#/controls`);
        await guardedPage.getByLabel("Admin token").fill("inspector-secret");
        await guardedPage.getByRole("button", { name: "Use token" }).click();
        await guardedPage.getByRole("heading", { name: "Clock" }).waitFor();
        await visible(guardedPage, /timers pending/);
        await guardedPage.close();
      } finally {
        await guardedInspector.close();
      }
      expect(fixtures.acme.sid).toMatch(/^AC/);
    });
  },
);
