// The receiver middleware in a customer's Express app: deliveries pass, anything tampered or unsigned gets 403.

import { createServer } from "node:http";
import express from "express";
import twilio from "twilio";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  computeSignature,
  createSandbox,
  createWebhookReceiverMiddleware,
  type Sandbox,
} from "../../src/index.js";
import type { OutboundRequest } from "../../src/webhooks/contract.js";
import { fixtures } from "../support/fixtures.js";
import { type LocalServer, listenLocally } from "../support/local-server.js";

const token = fixtures.acme.authToken;
let server: LocalServer;
let base = "";
let sandbox: Sandbox;
const seen: { path: string; body: unknown }[] = [];

const delivery = (url: string, method: "GET" | "POST" = "POST"): OutboundRequest => ({
  kind: "call-status",
  url,
  method,
  params: {
    CallSid: "CA1",
    AccountSid: fixtures.acme.sid,
    CallStatus: "ringing",
    Caller: "+1 415",
    Digits: "1&2",
  },
  accountSid: fixtures.acme.sid,
  authToken: token,
  callSid: "CA1",
});

beforeAll(async () => {
  const app = express();
  const ok = (req: express.Request, res: express.Response) => {
    seen.push({ path: req.originalUrl, body: req.body });
    res.status(200).send("ok");
  };
  app.post("/raw", createWebhookReceiverMiddleware({ authToken: token }), ok);
  app.post(
    "/parsed",
    express.urlencoded({ extended: false }),
    createWebhookReceiverMiddleware({ authToken: token }),
    ok,
  );
  app.get("/get", createWebhookReceiverMiddleware({ authToken: token }), ok);
  app.post(
    "/by-account",
    createWebhookReceiverMiddleware({
      authToken: (_req, params) => (params.AccountSid === fixtures.acme.sid ? token : undefined),
    }),
    ok,
  );
  app.post(
    "/behind-proxy",
    createWebhookReceiverMiddleware({ authToken: token, publicUrl: "https://hooks.example.com/" }),
    ok,
  );
  // A customer app written for Twilio, unmodified: twilio's own middleware checks X-Twilio-Signature.
  app.post(
    "/twilio-app",
    express.urlencoded({ extended: false }),
    twilio.webhook(token, { protocol: "http" }),
    ok,
  );
  server = await listenLocally(createServer(app));
  base = server.base;
});
afterAll(() => server.close());
beforeEach(() => {
  sandbox = createSandbox();
  seen.length = 0;
});

describe("receiver middleware", () => {
  it.each(["/raw", "/parsed", "/by-account", "/twilio-app", "/raw?tenant=a%20b"])(
    "accepts a sandbox delivery to %s and hands the parameters on",
    async (path) => {
      sandbox.webhooks.enqueue(delivery(base + path));
      await sandbox.settle();
      expect(sandbox.webhooks.deliveries).toMatchObject([{ status: 200, outcome: "success" }]);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.body).toMatchObject({ CallSid: "CA1", Caller: "+1 415", Digits: "1&2" });
    },
  );

  it("accepts a GET delivery signed over its query string", async () => {
    sandbox.webhooks.enqueue(delivery(`${base}/get`, "GET"));
    await sandbox.settle();
    expect(sandbox.webhooks.deliveries).toMatchObject([{ method: "GET", status: 200 }]);
  });

  it("answers 403 to a missing signature, a wrong one, a changed parameter or another account's token", async () => {
    const body = new URLSearchParams({ CallSid: "CA1", AccountSid: fixtures.acme.sid }).toString();
    const post = (path: string, signature: string | undefined, form = body) =>
      fetch(base + path, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(signature ? { "x-vendor-signature": signature } : {}),
        },
        body: form,
      });
    const params = { CallSid: "CA1", AccountSid: fixtures.acme.sid };
    const good = computeSignature(token, `${base}/raw`, params);
    expect((await post("/raw", good)).status).toBe(200);
    expect((await post("/raw", undefined)).status).toBe(403);
    expect((await post("/raw", good.replace(/^./, good[0] === "A" ? "B" : "A"))).status).toBe(403);
    expect((await post("/raw", good, `${body}&Extra=1`)).status).toBe(403);
    expect(
      (await post("/raw", computeSignature(fixtures.globex.authToken, `${base}/raw`, params))).status,
    ).toBe(403);
    const otherAccount = { CallSid: "CA1", AccountSid: fixtures.globex.sid };
    const signedByGlobex = computeSignature(fixtures.globex.authToken, `${base}/by-account`, otherAccount);
    expect(
      (await post("/by-account", signedByGlobex, new URLSearchParams(otherAccount).toString())).status,
    ).toBe(403);
    const forbidden = await post("/raw", undefined);
    expect(await forbidden.text()).toMatch(/Invalid webhook signature/);
  });

  it("checks the public URL when a proxy stands in front", async () => {
    const params = { CallSid: "CA1" };
    const send = (signature: string) =>
      fetch(`${base}/behind-proxy?x=1`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-vendor-signature": signature },
        body: new URLSearchParams(params).toString(),
      });
    expect(
      (await send(computeSignature(token, "https://hooks.example.com/behind-proxy?x=1", params))).status,
    ).toBe(200);
    expect((await send(computeSignature(token, `${base}/behind-proxy?x=1`, params))).status).toBe(403);
  });
});
