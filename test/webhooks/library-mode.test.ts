// Library mode: deliveries go through the global fetch, so a customer's own MSW handler receives them; or to an in-process receiver.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import twilio from "twilio";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSandbox, type ReceivedWebhook } from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";

const sandbox = createSandbox();
const received: { url: string; params: Record<string, string>; valid: boolean }[] = [];
const server = setupServer(
  ...sandbox.handlers,
  http.post("https://customer.example.test/status", async ({ request }) => {
    const params = Object.fromEntries(new URLSearchParams(await request.text()));
    const signature = request.headers.get("x-twilio-signature") ?? "";
    received.push({
      url: request.url,
      params,
      valid: twilio.validateRequest(fixtures.acme.authToken, signature, request.url, params),
    });
    return new HttpResponse(null, { status: 204 });
  }),
  http.post("https://customer.example.test/down", () => HttpResponse.error()),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  sandbox.reset();
  received.length = 0;
});

const callback = (url: string) => ({
  kind: "call-status" as const,
  url,
  method: "POST" as const,
  params: { CallSid: "CA1", CallStatus: "completed", SequenceNumber: "0" },
  accountSid: fixtures.acme.sid,
  authToken: fixtures.acme.authToken,
  callSid: "CA1",
});

describe("library mode (MSW)", () => {
  it("delivers to the customer's own MSW handler, signed so twilio.validateRequest accepts it", async () => {
    sandbox.webhooks.enqueue(callback("https://customer.example.test/status"));
    await sandbox.settle();
    expect(received).toEqual([
      {
        url: "https://customer.example.test/status",
        params: { CallSid: "CA1", CallStatus: "completed", SequenceNumber: "0" },
        valid: true,
      },
    ]);
    expect(sandbox.webhooks.deliveries).toMatchObject([{ status: 204, outcome: "success" }]);
  });

  it("logs a network error from an MSW handler and retries it when the test advances time", async () => {
    sandbox.webhooks.enqueue(callback("https://customer.example.test/down"));
    await sandbox.settle();
    expect(sandbox.webhooks.deliveries).toMatchObject([{ outcome: "network-error", status: null }]);
    await sandbox.clock.advance(1_000);
    await sandbox.settle();
    expect(sandbox.webhooks.deliveries.map((a) => a.attempt)).toEqual([1, 2]);
  });

  it("lets an in-process receiver answer instead of the network", async () => {
    const got: ReceivedWebhook[] = [];
    const unregister = sandbox.webhooks.register("https://app.internal.test/", (request) => {
      got.push(request);
      return request.url.endsWith("/voice") ? "<Response><Hangup/></Response>" : { status: 202 };
    });
    try {
      const markup = await sandbox.webhooks.request({
        ...callback("https://app.internal.test/voice"),
        kind: "voice-markup",
      });
      expect(markup).toMatchObject({ ok: true, status: 200, body: "<Response><Hangup/></Response>" });
      expect(markup.ok && markup.headers["content-type"]).toBe("text/xml");
      sandbox.webhooks.enqueue(callback("https://app.internal.test/status"));
      await sandbox.settle();
      expect(got.map((r) => [r.method, r.url])).toEqual([
        ["POST", "https://app.internal.test/voice"],
        ["POST", "https://app.internal.test/status"],
      ]);
      const status = got[1]!;
      expect(status.params).toEqual({ CallSid: "CA1", CallStatus: "completed", SequenceNumber: "0" });
      expect(
        twilio.validateRequest(
          fixtures.acme.authToken,
          status.headers["x-twilio-signature"]!,
          status.url,
          status.params,
        ),
      ).toBe(true);
      expect(sandbox.webhooks.deliveries.map((a) => [a.kind, a.status])).toEqual([
        ["voice-markup", 200],
        ["call-status", 202],
      ]);
    } finally {
      unregister();
    }
  });

  it("follows an in-process redirect for a markup fetch, and retries a receiver that throws", async () => {
    const unregister = sandbox.webhooks.register("https://app.internal.test/", (request) => {
      if (request.url.endsWith("/old")) return { status: 302, headers: { Location: "/new" } };
      if (request.url.endsWith("/new")) return "<Response/>";
      throw new Error("bug in the receiver");
    });
    try {
      const markup = await sandbox.webhooks.request({
        ...callback("https://app.internal.test/old"),
        kind: "voice-markup",
      });
      expect(markup).toMatchObject({ ok: true, url: "https://app.internal.test/new", body: "<Response/>" });
      sandbox.webhooks.enqueue(callback("https://app.internal.test/status"));
      await sandbox.settle();
      expect(sandbox.webhooks.list({ kind: "call-status" })).toMatchObject([
        { status: 500, outcome: "http-error", responseBody: "receiver threw: bug in the receiver" },
      ]);
      expect(sandbox.webhooks.stats().waitingRetry).toBe(1);
    } finally {
      unregister();
    }
  });
});
