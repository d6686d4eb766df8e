// Deliveries take turns per receiving host, and no answer is read further than the sandbox keeps.
import { createServer, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createSandbox, type Sandbox } from "../../src/index.js";
import { maxMarkupBytes } from "../../src/markup/parse.js";
import type { OutboundRequest } from "../../src/webhooks/contract.js";
import type { WebhookOptions } from "../../src/webhooks/webhook-options.js";
import { fixtures } from "../support/fixtures.js";
import { type LocalServer, listenLocally } from "../support/local-server.js";
import { type Receiver, startReceiver } from "./receiver.js";

const token = fixtures.acme.authToken;

const callback = (url: string, n: number): OutboundRequest => ({
  kind: "call-status",
  url,
  method: "POST",
  params: { CallSid: `CA${String(n).padStart(32, "0")}`, CallStatus: "completed" },
  accountSid: fixtures.acme.sid,
  authToken: token,
  callSid: `CA${String(n).padStart(32, "0")}`,
});

/** Fails with a message instead of hanging the suite when something that should happen does not. */
function within<T>(work: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done: ${what}`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** Polls a condition on the event loop until it holds (or `within` gives up). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A receiver whose answer never ends: it writes for as long as the client reads. */
async function endlessAnswer(contentType: string) {
  const responses: ServerResponse[] = [];
  let closed = 0;
  let onClose: () => void = () => undefined;
  const chunk = Buffer.alloc(64 * 1024, "x");
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      responses.push(res);
      res.writeHead(200, { "content-type": contentType });
      if (contentType === "text/xml") res.write("<Response><Say>");
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {}
      };
      res.on("drain", pump);
      res.on("close", () => {
        closed++;
        onClose();
      });
      pump();
    });
  });
  const listening: LocalServer = await listenLocally(server);
  return {
    base: listening.base,
    /** Resolves once `count` answers were cut off by the client. */
    closedAfter: (count: number) =>
      new Promise<void>((resolve) => {
        onClose = () => closed >= count && resolve();
        onClose();
      }),
    close: () => {
      for (const res of responses) res.destroy();
      return listening.close();
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A sandbox with a receiver that never answers and one that answers at once, both torn down after the test. */
async function hungAndFine(webhooks: WebhookOptions) {
  const sandbox: Sandbox = createSandbox({ webhooks: { timeoutMs: 60_000, ...webhooks } });
  const hung: Receiver = await startReceiver(token);
  const fine: Receiver = await startReceiver(token);
  cleanups.push(
    async () => sandbox.webhooks.clear(),
    () => hung.close(),
    () => fine.close(),
  );
  hung.behave(() => "hang");
  return { sandbox, hung, fine };
}

describe("fair delivery per host", () => {
  it("delivers to a fast receiver while a slow one holds its own few slots", async () => {
    const { sandbox, hung: slow, fine: fast } = await hungAndFine({});
    for (let n = 0; n < 256; n++) sandbox.webhooks.enqueue(callback(`${slow.base}/status`, n));
    for (let n = 256; n < 356; n++) sandbox.webhooks.enqueue(callback(`${fast.base}/status`, n));
    // Every fast delivery arrives while the slow receiver has answered none of its 256.
    await within(
      until(() => sandbox.webhooks.stats().delivered === 100),
      "the fast receiver's 100 deliveries",
    );
    const perHost = sandbox.webhooks.options.perHostConcurrency;
    expect(perHost).toBe(8);
    expect(slow.requests).toHaveLength(perHost);
    expect(sandbox.webhooks.list({ outcome: "success" })).toHaveLength(100);
    expect(sandbox.webhooks.stats()).toMatchObject({ inFlight: perHost, queued: 256 - perHost });
  });

  it("bounds what one host may have waiting: past the bound a callback is logged as not sent", async () => {
    const { sandbox, hung, fine } = await hungAndFine({ perHostConcurrency: 1, maxQueuedPerHost: 3 });
    for (let n = 0; n < 6; n++) sandbox.webhooks.enqueue(callback(`${hung.base}/status`, n));
    sandbox.webhooks.enqueue(callback(`${fine.base}/status`, 100));
    await within(
      until(() => sandbox.webhooks.stats().delivered === 1),
      "the other host's delivery",
    );
    const refused = sandbox.webhooks.list({ outcome: "network-error" });
    expect(refused.map((a) => a.params.CallSid)).toEqual(
      [3, 4, 5].map((n) => `CA${String(n).padStart(32, "0")}`),
    );
    expect(refused[0]!.error).toMatch(/not sent: 3 deliveries already waiting for 127\.0\.0\.1:\d+/);
    expect(sandbox.webhooks.stats()).toMatchObject({ inFlight: 1, queued: 2, failed: 3, delivered: 1 });
  });

  it("refuses a per-host limit that makes no sense", () => {
    expect(() => createSandbox({ webhooks: { perHostConcurrency: 0 } })).toThrow(/perHostConcurrency/);
    expect(() => createSandbox({ webhooks: { maxQueuedPerHost: 1.5 } })).toThrow(/maxQueuedPerHost/);
  });
});

describe("bounded answers", () => {
  it("logs the first KiB of a 10 MB callback answer", async () => {
    const sandbox = createSandbox();
    const receiver = await startReceiver(token);
    cleanups.push(() => receiver.close());
    receiver.behave(() => ({ status: 200, body: "y".repeat(10 * 1024 * 1024) }));
    sandbox.webhooks.enqueue(callback(`${receiver.base}/status`, 1));
    await within(sandbox.settle(), "the 10 MB answer's delivery");
    const [attempt] = sandbox.webhooks.list();
    expect(attempt).toMatchObject({ outcome: "success", status: 200 });
    expect(attempt!.responseBody).toBe("y".repeat(1024));
  });

  it("stops reading a callback answer that never ends once it has what it logs", async () => {
    const sandbox = createSandbox({ webhooks: { timeoutMs: 60_000 } });
    const endless = await endlessAnswer("text/plain");
    cleanups.push(() => endless.close());
    for (let n = 0; n < 3; n++) sandbox.webhooks.enqueue(callback(`${endless.base}/status`, n));
    await within(sandbox.settle(), "three deliveries answered endlessly");
    await within(endless.closedAfter(3), "the sandbox closing the three answers");
    const attempts = sandbox.webhooks.list();
    expect(attempts.map((a) => [a.outcome, a.responseBody?.length])).toEqual([
      ["success", 1024],
      ["success", 1024],
      ["success", 1024],
    ]);
  });

  it("reads a markup answer one byte past 64 KB and no further, so the parser refuses it", async () => {
    const sandbox = createSandbox({ webhooks: { timeoutMs: 60_000 } });
    const endless = await endlessAnswer("text/xml");
    cleanups.push(() => endless.close());
    const result = await within(
      sandbox.webhooks.request({
        kind: "voice-markup",
        url: `${endless.base}/voice`,
        method: "POST",
        params: { CallSid: "CA1" },
        accountSid: fixtures.acme.sid,
        authToken: token,
      }),
      "the endless markup fetch",
    );
    await within(endless.closedAfter(1), "the sandbox closing the markup answer");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Buffer.byteLength(result.body)).toBe(maxMarkupBytes + 1);
  });

  it("holds an in-process receiver's answer to the same limit", async () => {
    const sandbox = createSandbox();
    sandbox.webhooks.register(
      "https://app.test/",
      () => `<Response><Say>${"z".repeat(200_000)}</Say></Response>`,
    );
    const result = await sandbox.webhooks.request({
      kind: "voice-markup",
      url: "https://app.test/voice",
      method: "POST",
      params: {},
      accountSid: fixtures.acme.sid,
      authToken: token,
    });
    expect(result.ok && Buffer.byteLength(result.body)).toBe(maxMarkupBytes + 1);
  });
});
