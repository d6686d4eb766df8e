// Webhook delivery to a real local HTTP receiver: signing, methods, retries, failures, ordering and the log.
import twilio from "twilio";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import type { OutboundRequest } from "../../src/webhooks/contract.js";
import { validateSignature } from "../../src/webhooks/sign.js";
import { fixtures } from "../support/fixtures.js";
import { type Behaviour, closedPort, type Receiver, startReceiver } from "./receiver.js";

const token = fixtures.acme.authToken;
const callSid = "CA00000000000000000000000000000001";

let receiver: Receiver;
let sandbox: Sandbox;

const statusCallback = (url: string, overrides: Partial<OutboundRequest> = {}): OutboundRequest => ({
  kind: "call-status",
  url,
  method: "POST",
  params: {
    CallSid: callSid,
    AccountSid: fixtures.acme.sid,
    CallStatus: "completed",
    From: "+14155550100",
    To: "+14155550199",
    Direction: "outbound-api",
    ApiVersion: "2010-04-01",
    CallDuration: "12",
    SequenceNumber: "0",
  },
  accountSid: fixtures.acme.sid,
  authToken: token,
  callSid,
  ...overrides,
});

beforeEach(async () => {
  receiver = await startReceiver(token);
  sandbox = createSandbox({ webhooks: { timeoutMs: 2_000 } });
});
afterEach(async () => {
  await receiver.close();
});

describe("signed delivery", () => {
  it("POSTs the form with a signature the official twilio validator accepts", async () => {
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status`));
    await sandbox.settle();

    expect(receiver.requests).toHaveLength(1);
    const [got] = receiver.requests;
    expect(got!.acceptedByTwilio).toBe(true);
    expect(got!.method).toBe("POST");
    expect(got!.params).toMatchObject({ CallSid: callSid, CallStatus: "completed", SequenceNumber: "0" });
    expect(got!.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(got!.headers["x-vendor-signature"]).toBe(got!.headers["x-twilio-signature"]);
    expect(got!.headers["user-agent"]).toMatch(/^TwilioProxy\/1\.1 \(voice-sandbox\//);
    expect(got!.headers["i-twilio-idempotency-token"]).toMatch(/^WH[0-9a-f]{32}$/);
    expect(validateSignature(token, String(got!.headers["x-vendor-signature"]), got!.url, got!.params)).toBe(
      true,
    );

    const [entry] = sandbox.webhooks.deliveries;
    expect(entry).toMatchObject({
      kind: "call-status",
      attempt: 1,
      method: "POST",
      url: `${receiver.base}/status`,
      status: 200,
      outcome: "success",
      error: null,
      callSid,
      accountSid: fixtures.acme.sid,
      signature: got!.headers["x-vendor-signature"],
      idempotencyToken: got!.headers["i-twilio-idempotency-token"],
      at: sandbox.clock.now(),
      nextAttemptAt: null,
    });
    expect(entry!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("rejects, in both validators, a URL, parameter or token changed by one character", async () => {
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status?tenant=7`));
    await sandbox.settle();
    const got = receiver.requests[0]!;
    const signature = String(got.headers["x-vendor-signature"]);
    expect(got.acceptedByTwilio).toBe(true);
    const tampered: [string, string, Record<string, string>][] = [
      [token, got.url.replace("tenant=7", "tenant=8"), got.params],
      [token, got.url, { ...got.params, CallStatus: "completes" }],
      [`${token.slice(0, -1)}2`, got.url, got.params],
    ];
    for (const [key, url, params] of tampered) {
      expect(twilio.validateRequest(key, signature, url, params)).toBe(false);
      expect(validateSignature(key, signature, url, params)).toBe(false);
    }
  });

  it("signs the configured URL with its query string on a POST", async () => {
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status?a=1&b=two%20words`));
    await sandbox.settle();
    expect(receiver.requests[0]!.path).toBe("/status?a=1&b=two%20words");
    expect(receiver.requests[0]!.acceptedByTwilio).toBe(true);
  });

  it("puts the parameters in the query string for GET and signs that URL", async () => {
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status?x=1`, { method: "GET" }));
    await sandbox.settle();
    const got = receiver.requests[0]!;
    expect(got.method).toBe("GET");
    expect(got.body).toBe("");
    expect(got.headers["content-type"]).toBeUndefined();
    const query = new URL(got.url).searchParams;
    expect(query.get("x")).toBe("1");
    expect(query.get("CallSid")).toBe(callSid);
    expect(query.get("From")).toBe("+14155550100");
    expect(got.acceptedByTwilio).toBe(true);
    expect(twilio.validateRequest(token, String(got.headers["x-twilio-signature"]), got.url, {})).toBe(true);
    expect(sandbox.webhooks.deliveries[0]!.url).toBe(got.url);
  });

  it("never makes the API wait: enqueue returns at once and the API answers while a delivery hangs", async () => {
    receiver.behave(() => "hang");
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status`));
    await receiver.waitFor(1);
    const response = await sandbox.fetch(`${sandbox.baseUrl}/__sandbox/health`);
    expect(response.status).toBe(200);
    expect(sandbox.webhooks.stats().inFlight).toBe(1);
    expect(sandbox.webhooks.deliveries).toHaveLength(0);
  });
});

describe("retries", () => {
  it("retries a 500 with exponential backoff on the sandbox clock, with the same idempotency token", async () => {
    receiver.behave((_request, index) => (index < 2 ? { status: 500, body: "boom" } : { status: 204 }));
    const start = sandbox.clock.now();
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status`));
    await sandbox.settle();

    // The retry waits on the virtual clock: nothing more happens until the test moves time.
    expect(receiver.requests).toHaveLength(1);
    expect(sandbox.webhooks.stats().waitingRetry).toBe(1);
    expect(sandbox.webhooks.deliveries[0]).toMatchObject({
      attempt: 1,
      status: 500,
      outcome: "http-error",
      error: "HTTP 500",
      responseBody: "boom",
      nextAttemptAt: start + 1_000,
    });

    await sandbox.clock.advance(999);
    await sandbox.settle();
    expect(receiver.requests).toHaveLength(1);
    await sandbox.clock.advance(1);
    await sandbox.settle();
    expect(receiver.requests).toHaveLength(2);
    expect(sandbox.webhooks.deliveries[1]).toMatchObject({
      attempt: 2,
      at: start + 1_000,
      nextAttemptAt: start + 3_000,
    });

    await sandbox.clock.advance(2_000);
    await sandbox.settle();
    expect(receiver.requests).toHaveLength(3);
    const log = sandbox.webhooks.deliveries;
    expect(log.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, 500, "http-error"],
      [2, 500, "http-error"],
      [3, 204, "success"],
    ]);
    expect(new Set(log.map((a) => a.id)).size).toBe(1);
    const tokens = new Set(receiver.requests.map((r) => r.headers["i-twilio-idempotency-token"]));
    expect(tokens.size).toBe(1);
    expect(receiver.requests.every((r) => r.acceptedByTwilio)).toBe(true);
    expect(sandbox.webhooks.stats()).toMatchObject({ delivered: 1, failed: 0, waitingRetry: 0 });
  });

  it("gives up after maxAttempts and logs every attempt", async () => {
    receiver.behave(() => ({ status: 503 }));
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status`));
    await sandbox.settle();
    await sandbox.clock.advance(1_000);
    await sandbox.settle();
    await sandbox.clock.advance(2_000);
    await sandbox.settle();
    await sandbox.clock.advance(60_000);
    await sandbox.settle();
    expect(receiver.requests).toHaveLength(3);
    expect(sandbox.webhooks.deliveries.map((a) => a.nextAttemptAt === null)).toEqual([false, false, true]);
    expect(sandbox.webhooks.stats()).toMatchObject({ delivered: 0, failed: 1, waitingRetry: 0 });
  });

  it.each([400, 404, 410])("does not retry a %i", async (status) => {
    receiver.behave(() => ({ status }));
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status`));
    await sandbox.settle();
    await sandbox.clock.advance(60_000);
    await sandbox.settle();
    expect(receiver.requests).toHaveLength(1);
    expect(sandbox.webhooks.deliveries).toMatchObject([
      { status, outcome: "http-error", nextAttemptAt: null },
    ]);
  });

  it("takes a 3xx as the answer to a callback: no redirect followed, no retry", async () => {
    receiver.behave(() => ({ status: 302, headers: { location: "/elsewhere" } }));
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status`));
    await sandbox.settle();
    await sandbox.clock.advance(60_000);
    await sandbox.settle();
    expect(receiver.requests.map((r) => r.path)).toEqual(["/status"]);
    expect(sandbox.webhooks.deliveries).toMatchObject([{ status: 302, outcome: "success" }]);
  });

  it("retries a connection reset, then delivers", async () => {
    receiver.behave((_request, index) => (index === 0 ? "reset" : { status: 200 }));
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status`));
    await sandbox.settle();
    const [first] = sandbox.webhooks.deliveries;
    expect(first).toMatchObject({
      outcome: "network-error",
      status: null,
      nextAttemptAt: expect.any(Number),
    });
    expect(first!.error).toBeTruthy();
    await sandbox.clock.advance(1_000);
    await sandbox.settle();
    expect(sandbox.webhooks.deliveries.map((a) => a.outcome)).toEqual(["network-error", "success"]);
  });

  it("retries a receiver that is not listening, and says so in the log", async () => {
    const port = await closedPort();
    sandbox.webhooks.enqueue(statusCallback(`http://127.0.0.1:${port}/status`));
    await sandbox.settle();
    expect(sandbox.webhooks.deliveries[0]).toMatchObject({ outcome: "network-error", status: null });
    expect(sandbox.webhooks.deliveries[0]!.error).toMatch(/ECONNREFUSED/);
    expect(sandbox.webhooks.stats().waitingRetry).toBe(1);
  });

  it("times out a receiver that never answers, retries it, and keeps delivering other calls meanwhile", async () => {
    const slow = createSandbox({ webhooks: { timeoutMs: 300 } });
    receiver.behave((request) => (request.path === "/slow" ? "hang" : { status: 200 }));
    slow.webhooks.enqueue(
      statusCallback(`${receiver.base}/slow`, { callSid: "CA_slow", orderingKey: "CA_slow" }),
    );
    await receiver.waitFor(1);
    slow.webhooks.enqueue(
      statusCallback(`${receiver.base}/fast`, { callSid: "CA_fast", orderingKey: "CA_fast" }),
    );
    await receiver.waitFor(2);
    // The fast call's delivery went out while the slow one was still outstanding.
    expect(slow.webhooks.stats().inFlight).toBeGreaterThanOrEqual(1);
    await slow.settle();
    const byCall = (sid: string) => slow.webhooks.list({ callSid: sid });
    expect(byCall("CA_fast")).toMatchObject([{ outcome: "success", status: 200 }]);
    expect(byCall("CA_slow")).toMatchObject([
      {
        outcome: "timeout",
        status: null,
        error: "timed out after 300 ms",
        nextAttemptAt: expect.any(Number),
      },
    ]);
    await slow.clock.advance(1_000);
    await slow.settle();
    expect(byCall("CA_slow").map((a) => a.attempt)).toEqual([1, 2]);
  });

  it("does not retry markup fetches and follows their redirects", async () => {
    receiver.behave(
      (request): Behaviour =>
        request.path === "/voice"
          ? { status: 301, headers: { location: "/twiml" } }
          : request.path === "/twiml"
            ? {
                status: 200,
                body: "<Response><Say>hi</Say></Response>",
                headers: { "content-type": "text/xml" },
              }
            : { status: 500 },
    );
    const markup = await sandbox.webhooks.request(
      statusCallback(`${receiver.base}/voice`, { kind: "voice-markup", params: { CallSid: callSid } }),
    );
    expect(markup).toMatchObject({ ok: true, status: 200, url: `${receiver.base}/twiml` });
    expect(markup.ok && markup.body).toBe("<Response><Say>hi</Say></Response>");

    const broken = await sandbox.webhooks.request(
      statusCallback(`${receiver.base}/broken`, { kind: "voice-markup", params: { CallSid: callSid } }),
    );
    expect(broken).toMatchObject({ ok: false, status: 500, error: "HTTP 500" });
    await sandbox.clock.advance(60_000);
    await sandbox.settle();
    expect(receiver.requests.map((r) => r.path)).toEqual(["/voice", "/twiml", "/broken"]);
    expect(sandbox.webhooks.list({ kind: "voice-markup" }).map((a) => a.outcome)).toEqual([
      "success",
      "http-error",
    ]);
  });

  it("refuses an invalid URL without retrying and without throwing", async () => {
    sandbox.webhooks.enqueue(statusCallback("not a url"));
    await sandbox.settle();
    await sandbox.clock.advance(60_000);
    await sandbox.settle();
    expect(sandbox.webhooks.deliveries).toMatchObject([
      { outcome: "network-error", error: "invalid URL: not a url" },
    ]);
  });
});

describe("ordering", () => {
  it("delivers each call's statuses in order even when the receiver answers out of order", async () => {
    const calls = 20;
    const statuses = ["queued", "ringing", "in-progress", "completed"];
    let outstanding = 0;
    let maxOutstanding = 0;
    receiver.behave((request, index) => {
      outstanding++;
      maxOutstanding = Math.max(maxOutstanding, outstanding);
      // Later requests answer sooner, so a dispatcher that did not wait per call would reorder.
      const delayMs = ((calls * statuses.length - index) % 7) * 3;
      setTimeout(() => outstanding--, delayMs);
      void request;
      return { status: 200, delayMs };
    });
    for (const [n, status] of statuses.entries()) {
      for (let c = 0; c < calls; c++) {
        const sid = `CA${String(c).padStart(32, "0")}`;
        sandbox.webhooks.enqueue(
          statusCallback(`${receiver.base}/status`, {
            callSid: sid,
            orderingKey: sid,
            params: { CallSid: sid, CallStatus: status, SequenceNumber: String(n) },
          }),
        );
      }
    }
    await sandbox.settle();
    expect(receiver.requests).toHaveLength(calls * statuses.length);
    for (let c = 0; c < calls; c++) {
      const sid = `CA${String(c).padStart(32, "0")}`;
      const seen = receiver.requests
        .filter((r) => r.params.CallSid === sid)
        .map((r) => r.params.SequenceNumber);
      expect(seen).toEqual(["0", "1", "2", "3"]);
    }
    expect(maxOutstanding).toBeGreaterThan(1);
  });

  it("holds a call's later status until an earlier one's retries are done", async () => {
    receiver.behave((request, index) =>
      index === 0 && request.params.SequenceNumber === "0" ? { status: 500 } : { status: 200 },
    );
    for (const n of ["0", "1"]) {
      sandbox.webhooks.enqueue(
        statusCallback(`${receiver.base}/status`, { params: { CallSid: callSid, SequenceNumber: n } }),
      );
    }
    await sandbox.settle();
    expect(receiver.requests.map((r) => r.params.SequenceNumber)).toEqual(["0"]);
    await sandbox.clock.advance(1_000);
    await sandbox.settle();
    expect(receiver.requests.map((r) => r.params.SequenceNumber)).toEqual(["0", "0", "1"]);
  });
});

describe("the delivery log", () => {
  it("is bounded: the oldest attempts fall out, and none is lost from the counts", async () => {
    const small = createSandbox({ webhooks: { logLimit: 5 } });
    for (let n = 0; n < 8; n++) {
      small.webhooks.enqueue(
        statusCallback(`${receiver.base}/status`, { params: { N: String(n) }, orderingKey: "one" }),
      );
    }
    await small.settle();
    expect(receiver.requests).toHaveLength(8);
    expect(small.webhooks.deliveries.map((a) => a.params.N)).toEqual(["3", "4", "5", "6", "7"]);
    expect(small.webhooks.evicted).toBe(3);
    expect(small.webhooks.stats().delivered).toBe(8);
  });

  it("is emptied by reset, which also drops pending retries", async () => {
    receiver.behave(() => ({ status: 500 }));
    sandbox.webhooks.enqueue(statusCallback(`${receiver.base}/status`));
    await sandbox.settle();
    expect(sandbox.webhooks.deliveries).toHaveLength(1);
    sandbox.reset();
    expect(sandbox.webhooks.deliveries).toHaveLength(0);
    await sandbox.clock.advance(60_000);
    await sandbox.settle();
    expect(receiver.requests).toHaveLength(1);
  });

  it("refuses settings that make no sense", () => {
    expect(() => createSandbox({ webhooks: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
    expect(() => createSandbox({ webhooks: { timeoutMs: -1 } })).toThrow(/timeoutMs/);
  });
});

describe("a burst", () => {
  it("delivers 10,000 signed callbacks with every one logged and none lost", async () => {
    const total = 10_000;
    // Default 15 s timeout; a loaded machine may still time some out, and those are retried until done.
    const burst = createSandbox({ webhooks: { logLimit: 50_000, maxAttempts: 10 } });
    for (let n = 0; n < total; n++) {
      const sid = `CA${String(n % 100).padStart(32, "0")}`;
      burst.webhooks.enqueue(
        statusCallback(`${receiver.base}/burst`, { callSid: sid, params: { CallSid: sid, N: String(n) } }),
      );
    }
    await burst.settle();
    for (let round = 0; round < 20 && burst.webhooks.stats().waitingRetry > 0; round++) {
      await burst.clock.advance(600_000);
      await burst.settle();
    }
    expect(burst.webhooks.stats()).toMatchObject({ delivered: total, failed: 0, queued: 0, inFlight: 0 });
    expect(new Set(receiver.requests.map((r) => r.params.N)).size).toBe(total);
    expect(receiver.requests.every((r) => r.acceptedByTwilio)).toBe(true);
    const log = burst.webhooks.deliveries;
    expect(burst.webhooks.evicted).toBe(0);
    const succeeded = new Set(log.filter((a) => a.outcome === "success").map((a) => a.params.N));
    expect(succeeded.size).toBe(total);
    expect(new Set(log.map((a) => a.id)).size).toBe(total);
  }, 300_000);
});
