// The inspector's rough edges in Chromium: millisecond times, the returned markup labelled, a marker on every
// expandable row, why the first Ring ended and setting a number's URLs from the page, search and clear for calls and
// messages, a wrong admin token, and a Host name the server does not answer.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { type RunningInspector, startInspector } from "../../src/inspector/index.js";
import { seriousViolations } from "../support/axe.js";
import { type LaunchedBrowser, launchBrowser, noBrowserReason } from "../support/browser.js";

const app = "https://app.example.test";
const number = "+14155550100";
const caller = "+15005550006";
/** A name like a Compose service's, resolved to this machine by the browser alone. */
const composeName = "voice-sandbox";

function answerApp(sandbox: Sandbox) {
  sandbox.webhooks.register(`${app}/`, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/voice") return '<Response><Say>Welcome to the app</Say><Pause length="30"/></Response>';
    if (path === "/sms") return `<Response><Message>Got it: ${request.params.Body}</Message></Response>`;
    return "";
  });
}

const visible = (page: Page, text: string | RegExp) =>
  page.getByText(text).first().waitFor({ state: "visible", timeout: 30_000 });

/** A message's bubble by its exact text (a reply quotes it). */
const bubble = (page: Page, text: string) =>
  page.locator(".bubble > p:first-of-type", { hasText: new RegExp(`^${text}$`) });

/** The disclosure marker an expandable row draws before its summary. */
const marker = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((summary) => getComputedStyle(summary, "::before").content);

describe.skipIf(noBrowserReason !== null)(
  `the inspector's rough edges in Chromium${noBrowserReason ? ` (skipped: ${noBrowserReason})` : ""}`,
  { timeout: 60_000 },
  () => {
    // The default fixtures as they are: the number rung first has no Voice URL.
    let sandbox: Sandbox;
    let inspector: RunningInspector;
    let launched: LaunchedBrowser;
    let page: Page;
    let firstCall = "";

    beforeAll(async () => {
      sandbox = createSandbox();
      answerApp(sandbox);
      inspector = await startInspector(sandbox);
      launched = await launchBrowser({ hosts: [composeName] });
      page = await launched.context.newPage();
    }, 30_000);

    afterAll(async () => {
      await launched?.close();
      await inspector?.close();
    });

    it("shows why the first Ring on the default fixtures ended, and sets the number's Voice URL and SMS URL from the page", async () => {
      await page.goto(`${inspector.url}#/phone`);
      await page.getByLabel("Caller ID").fill(caller);
      await page.getByRole("button", { name: "Ring" }).click();
      await page.getByRole("link", { name: "timeline" }).waitFor();
      firstCall = sandbox.store.calls.all()[0]!.sid;
      await sandbox.clock.advance(2000);
      await sandbox.settle();
      const alerts = page.locator(".call-alerts");
      await alerts.getByText("11200").waitFor();
      expect(await alerts.textContent()).toContain("HTTP retrieval failure: no URL is configured");
      await visible(page, "The number has no Voice URL: set one under Numbers below, then ring again.");

      await page.getByLabel(`Voice URL of ${number}`).fill(`${app}/voice`);
      await page.getByLabel(`SMS URL of ${number}`).fill(`${app}/sms`);
      await page.getByRole("button", { name: `Save the URLs of ${number}` }).click();
      await visible(page, `Saved ${number}`);
      const line = sandbox.store.phoneNumbers.findOne("number", number)!;
      expect(line.voice_url).toBe(`${app}/voice`);
      expect(line.sms_url).toBe(`${app}/sms`);
      // Saved through the account API, as the account's own client would.
      expect(
        sandbox.requests
          .list()
          .some(
            (r) =>
              r.method === "POST" &&
              r.path.endsWith(`/IncomingPhoneNumbers/${line.sid}.json`) &&
              r.status === 200,
          ),
      ).toBe(true);
      // A URL the account API refuses is not saved, and the page says why.
      await page.getByLabel(`Voice URL of ${number}`).fill("ftp://files.example.test/voice");
      await page.getByRole("button", { name: `Save the URLs of ${number}` }).click();
      await visible(page, /^Not saved: .*VoiceUrl/);
      expect(sandbox.store.phoneNumbers.findOne("number", number)!.voice_url).toBe(`${app}/voice`);

      await page.getByRole("button", { name: "Ring" }).click();
      // The click returns before the page's request lands: the clock moves only once the second call exists.
      await expect.poll(() => sandbox.store.calls.all().length, { timeout: 30_000 }).toBe(2);
      await sandbox.clock.advance(1000);
      await visible(page, "Welcome to the app");
    });

    it("writes markup fetch and webhook times to the millisecond, labels the returned markup, and marks expandable rows", async () => {
      const call = sandbox.store.calls.all().find((c) => c.sid !== firstCall)!;
      await page.goto(`${inspector.url}#/calls/${call.sid}`);
      const fetched = page.locator(".markups > li").first();
      await fetched.waitFor();
      expect(await fetched.locator("p").first().textContent()).toMatch(/→ 200 \+\d+\.\d{3} s · \d+ ms/);
      const returned = page.getByRole("figure", { name: "Returned markup (HTTP 200)" });
      expect(await returned.locator("pre").textContent()).toContain("<Say>Welcome to the app</Say>");
      expect(await marker(page, ".markups details > summary")).toContain("▸");
      await page.locator(".markups details > summary").first().click();
      expect(await marker(page, ".markups details[open] > summary")).toContain("▾");

      await page.goto(`${inspector.url}#/webhooks`);
      const row = page.locator(".deliveries > li").first();
      await row.waitFor();
      expect(await row.locator("summary .muted").textContent()).toMatch(/ms · \d\d:\d\d:\d\d\.\d{3}$/);
      expect(await marker(page, ".deliveries details > summary")).toContain("▸");
      await page.goto(`${inspector.url}#/requests`);
      await page.locator(".requests > li").first().waitFor();
      expect(await marker(page, ".requests details > summary")).toContain("▸");
    });

    it("searches calls by sid and by number, and clears the list until new calls come", async () => {
      await page.goto(`${inspector.url}#/calls`);
      const rows = page.locator("table.list tbody tr");
      await rows.nth(1).waitFor();
      const search = page.getByRole("searchbox", { name: "Search" });
      await search.fill(firstCall);
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await visible(page, "1 call");
      expect(await rows.count()).toBe(1);
      await search.fill("+19995550000");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await visible(page, "No calls match “+19995550000”.");
      await search.fill(caller);
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await visible(page, "2 calls");
      await search.fill("");
      await visible(page, "2 calls");

      await page.getByRole("button", { name: "Clear list" }).click();
      await visible(page, "No calls since the list was cleared.");
      // Still cleared after a reload of the page (kept for the tab), and a new call shows as it comes.
      await page.reload();
      await visible(page, "No calls since the list was cleared.");
      const next = sandbox.calls.ring({ from: "+15005550009", to: number });
      await page.getByRole("link", { name: `Call from +15005550009 to ${number}, ringing` }).waitFor();
      expect(await rows.count()).toBe(1);
      sandbox.calls.hangup(next.sid);
      await page.getByRole("button", { name: "Show all calls" }).click();
      await visible(page, "3 calls");
    });

    it("searches messages by number and status, and clears them", async () => {
      sandbox.calls.messages.receive({ from: caller, to: number, body: "first text" });
      sandbox.calls.messages.receive({ from: "+15005550010", to: number, body: "other text" });
      await sandbox.clock.advance(2000);
      await sandbox.settle();
      await page.goto(`${inspector.url}#/messages`);
      const conversations = page.locator(".conversations li");
      await conversations.nth(1).waitFor();
      const search = page.getByRole("searchbox", { name: "Search" });
      await search.fill("+15005550010");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      // The unfiltered page may show that thread already: the search is done when one conversation is left.
      await expect.poll(() => conversations.count(), { timeout: 30_000 }).toBe(1);
      await bubble(page, "other text").waitFor();
      expect(await bubble(page, "first text").count()).toBe(0);
      await search.fill("");
      await page.getByLabel("Status").selectOption("failed");
      await visible(page, "No messages with status failed.");
      await page.getByLabel("Status").selectOption("");
      await conversations.nth(1).waitFor();

      await page.getByRole("button", { name: "Clear list" }).click();
      await visible(page, "No messages since the list was cleared.");
      sandbox.calls.messages.receive({ from: caller, to: number, body: "after the clear" });
      await bubble(page, "after the clear").waitFor();
      expect(await bubble(page, "first text").count()).toBe(0);
      await page.getByRole("button", { name: "Show all messages" }).click();
      await bubble(page, "first text").waitFor();
    });

    it("keeps the search bars, the numbers and a call's alerts accessible and inside a narrow screen", async () => {
      const found: string[] = [];
      for (const hash of ["#/calls", "#/messages", "#/phone", `#/calls/${firstCall}`]) {
        await page.goto(`${inspector.url}${hash}`);
        await page.locator("main h1").waitFor();
        await page.waitForFunction(() => document.querySelector("[aria-busy='true']") === null);
        for (const violation of await seriousViolations(page)) found.push(`${hash}: ${violation}`);
        await page.setViewportSize({ width: 380, height: 800 });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 0) found.push(`${hash}: ${overflow} px wider than a 380 px screen`);
        await page.setViewportSize({ width: 1100, height: 720 });
      }
      expect(found).toEqual([]);
    });

    it("says a wrong admin token was refused and how to find the right one", async () => {
      const guarded = createSandbox({ adminToken: "inspector-secret-0000" });
      const guardedInspector = await startInspector(guarded);
      const guardedPage = await launched.context.newPage();
      try {
        await guardedPage.goto(`${guardedInspector.url}#/calls`);
        await guardedPage.getByLabel("Admin token").fill("not-the-token-000000");
        await guardedPage.getByRole("button", { name: "Use token" }).click();
        await visible(guardedPage, /^The admin token you gave was refused \(403\): /);
        await visible(guardedPage, "--admin-token");
        expect(await seriousViolations(guardedPage)).toEqual([]);
        await guardedPage.getByLabel("Admin token").fill("inspector-secret-0000");
        await guardedPage.getByRole("button", { name: "Try this token" }).click();
        await guardedPage.getByRole("heading", { name: "Calls" }).waitFor();
        await visible(guardedPage, "No calls yet.");
      } finally {
        await guardedPage.close();
        await guardedInspector.close();
      }
    });

    it("says why a Compose-style Host name is refused and what to start the server with", async () => {
      const { port } = new URL(inspector.url);
      const foreign = await launched.context.newPage();
      try {
        await foreign.goto(`http://${composeName}:${port}/__sandbox/ui#/calls`);
        await foreign.getByRole("heading", { name: "The sandbox refused this page" }).waitFor();
        const said = await foreign.getByRole("alert").first().textContent();
        expect(said).toContain(`403: the sandbox does not answer for Host "${composeName}:${port}"`);
        expect(said).toContain(`--allowed-hosts ${composeName}`);
        expect(said).toContain(`--public-url http://${composeName}:${port}`);
        // No token form: a token would not help.
        expect(await foreign.getByLabel("Admin token").count()).toBe(0);
        expect(await seriousViolations(foreign)).toEqual([]);
      } finally {
        await foreign.close();
      }
    });
  },
);
