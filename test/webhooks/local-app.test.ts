// A customer's app running as a real local HTTP server, checking every request with twilio.webhook(), gets the
// sandbox's signed webhooks while the test's MSW setup refuses everything unhandled (failOnUnhandled).
import { createServer } from "node:http";
import express from "express";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import twilio from "twilio";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createSandbox, failOnUnhandled, isSandboxWebhook } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";
import { type LocalServer, listenLocally } from "../support/local-server.js";

const { sid: accountSid, authToken } = fixtures.acme;
const number = "+14155550100";

interface Hit {
  path: string;
  params: Record<string, string>;
  headers: Record<string, string>;
}

/** The app as customers write it: express, twilio.webhook() in front of every route (403 when unsigned). */
function customerApp(hits: Hit[]) {
  const app = express();
  app.use(express.urlencoded({ extended: false }));
  app.use(twilio.webhook(authToken));
  app.use((req, res) => {
    hits.push({
      path: req.path,
      params: { ...(req.body as Record<string, string>) },
      headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)])),
    });
    if (req.path === "/voice") res.type("text/xml").send("<Response><Say>Hello</Say><Hangup/></Response>");
    else res.status(204).end();
  });
  return createServer(app);
}

const sandbox = createSandbox();
const mocked: Record<string, string>[] = [];
// The test's own handler for another app, listed after the sandbox's: it still answers that app's deliveries.
const server = setupServer(
  ...sandbox.handlers,
  http.post("https://mocked-app.example.test/status", async ({ request }) => {
    mocked.push(Object.fromEntries(new URLSearchParams(await request.text())));
    return new HttpResponse(null, { status: 204 });
  }),
);
const client = twilio(accountSid, authToken);
client.api.baseUrl = sandbox.baseUrl;

const hits: Hit[] = [];
let app: LocalServer;

beforeAll(async () => {
  app = await listenLocally(customerApp(hits));
  server.listen(failOnUnhandled);
});
afterAll(async () => {
  server.close();
  await app.close();
});
beforeEach(() => {
  sandbox.reset();
  hits.length = 0;
  mocked.length = 0;
});

describe("a customer's app as a real local server, under failOnUnhandled", () => {
  it("answers an inbound call's markup and gets its status callbacks, every one accepted by twilio.webhook()", async () => {
    const [incoming] = await client.incomingPhoneNumbers.list({ phoneNumber: number });
    await client.incomingPhoneNumbers(incoming!.sid).update({
      voiceUrl: `${app.base}/voice`,
      statusCallback: `${app.base}/call-status`,
    });

    const call = sandbox.calls.ring({ from: "+14155550123", to: number });
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();

    expect((await client.calls(call.sid).fetch()).status).toBe("completed");
    expect(hits.map((hit) => hit.path)).toEqual(["/voice", "/call-status"]);
    expect(hits[0]!.params).toMatchObject({ CallSid: call.sid, From: "+14155550123", CallStatus: "ringing" });
    expect(hits[1]!.params).toMatchObject({ CallSid: call.sid, CallStatus: "completed" });
    // twilio.webhook() answers 403 to a request whose signature it refuses: each was accepted.
    expect(sandbox.webhooks.deliveries.map((d) => [d.url, d.status])).toEqual([
      [`${app.base}/voice`, 200],
      [`${app.base}/call-status`, 204],
    ]);
  });

  it("gets a message's status callbacks", async () => {
    const message = await client.messages.create({
      from: number,
      to: "+15558675310",
      body: "Your code is 1234",
      statusCallback: `${app.base}/sms-status`,
    });
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();

    expect(hits.map((hit) => [hit.path, hit.params.MessageSid, hit.params.MessageStatus])).toEqual([
      ["/sms-status", message.sid, "sending"],
      ["/sms-status", message.sid, "sent"],
      ["/sms-status", message.sid, "delivered"],
    ]);
    expect(sandbox.webhooks.deliveries.every((d) => d.outcome === "success")).toBe(true);
  });

  it("leaves a delivery to the test's own MSW handler in that handler, not on the network", async () => {
    await client.messages.create({
      from: number,
      to: "+15558675310",
      body: "Hi",
      statusCallback: "https://mocked-app.example.test/status",
    });
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();

    expect(mocked.map((params) => params.MessageStatus)).toEqual(["sending", "sent", "delivered"]);
    expect(hits).toEqual([]);
  });

  it("still fails a request the test makes itself, even one copying a finished delivery's headers", async () => {
    const [incoming] = await client.incomingPhoneNumbers.list({ phoneNumber: number });
    await client.incomingPhoneNumbers(incoming!.sid).update({ voiceUrl: `${app.base}/voice` });
    sandbox.calls.ring({ from: "+14155550123", to: number });
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    const [delivered] = hits;
    expect(delivered?.headers["i-twilio-idempotency-token"]).toMatch(/^WH/);

    const printed = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const replay = new Request(`${app.base}/voice`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "i-twilio-idempotency-token": delivered!.headers["i-twilio-idempotency-token"]!,
          "x-twilio-signature": delivered!.headers["x-twilio-signature"]!,
        },
        body: new URLSearchParams(delivered!.params).toString(),
      });
      expect(isSandboxWebhook(replay)).toBe(false);
      await expect(fetch(replay)).rejects.toThrow();
      expect(printed.mock.calls.flat().join(" ")).toContain("without a matching request handler");
    } finally {
      printed.mockRestore();
    }
    expect(hits).toHaveLength(1);
  });
});
