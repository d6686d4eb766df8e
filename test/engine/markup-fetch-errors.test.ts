// Markup fetches that bring no usable document: Twilio's specific codes, passed to the fallback as ErrorCode.
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CustomerApp, startCustomerApp } from "../support/customer-app.js";
import { useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

describe("markup fetch errors", () => {
  const door = useDoor("express", { webhooks: { timeoutMs: 2000 } });
  let app: CustomerApp;
  beforeAll(async () => {
    app = await startCustomerApp();
  });
  beforeEach(() => app.clear());
  afterAll(async () => app.close());

  /** Points the main number at `voiceUrl` with the app's /fallback, rings it, and gives the call's alerts. */
  const ringWith = async (voiceUrl: string) => {
    const client = door.twilioClient();
    const [number] = await client.incomingPhoneNumbers.list({ phoneNumber: fixtures.acme.mainNumber });
    await client
      .incomingPhoneNumbers(number!.sid)
      .update({ voiceUrl, voiceFallbackUrl: app.url("/fallback") });
    app.on("/fallback", "<Response><Say>Sorry</Say></Response>");
    const res = await door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: "+14155559876", to: fixtures.acme.mainNumber },
      headers: { "content-type": "application/json" },
    });
    await door.sandbox.clock.runUntilIdle();
    await door.sandbox.settle();
    const sid = res.json.sid as string;
    return {
      codes: door.sandbox.calls.alerts(sid).map((a) => a.code),
      messages: door.sandbox.calls.alerts(sid).map((a) => a.message),
      errorCode: app.received("/fallback")[0]?.params.ErrorCode,
      heard: door.sandbox.calls.heard(sid).map((e) => e.text),
    };
  };

  it("no answer in time is 11205 HTTP connection failure", async () => {
    const stop = door.sandbox.webhooks.register(
      "http://hung.test/",
      () => new Promise<never>(() => undefined),
    );
    try {
      const result = await ringWith("http://hung.test/voice");
      expect(result.codes).toEqual([11205]);
      expect(result.messages[0]).toMatch(/^HTTP connection failure: timed out/);
      expect(result.errorCode).toBe("11205");
      expect(result.heard).toEqual(["Sorry"]);
    } finally {
      stop();
    }
  });

  it("a refused connection is 11202 TCP connection refused", async () => {
    // A port that was just free: nothing listens there, so the connection is refused.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const result = await ringWith(`http://127.0.0.1:${port}/voice`);
    expect(result.codes).toEqual([11202]);
    expect(result.messages[0]).toMatch(/^TCP connection refused: ECONNREFUSED/);
    expect(result.errorCode).toBe("11202");
  });

  it("a host name that does not resolve is 11210 HTTP bad host name", async () => {
    // .invalid never resolves (RFC 6761), with or without a network.
    const result = await ringWith("http://no-such-host.invalid/voice");
    expect(result.codes).toEqual([11210]);
    expect(result.messages[0]).toMatch(/^HTTP bad host name: (ENOTFOUND|EAI_AGAIN)/);
    expect(result.errorCode).toBe("11210");
    expect(result.heard).toEqual(["Sorry"]);
  });

  it("a redirect loop is 11215 HTTP too many redirects", async () => {
    const loop = createHttpServer((_req, res) => res.writeHead(302, { location: "/again" }).end());
    await new Promise<void>((resolve) => loop.listen(0, "127.0.0.1", resolve));
    const { port } = loop.address() as { port: number };
    try {
      const result = await ringWith(`http://127.0.0.1:${port}/voice`);
      expect(result.codes).toEqual([11215]);
      expect(result.messages[0]).toMatch(/^HTTP too many redirects/);
      expect(result.errorCode).toBe("11215");
    } finally {
      await new Promise((resolve) => loop.close(resolve));
    }
  });

  it("an error status stays 11200 HTTP retrieval failure", async () => {
    app.on("/voice", { status: 503 });
    const result = await ringWith(app.url("/voice"));
    expect(result.codes).toEqual([11200]);
    expect(result.messages[0]).toBe(`HTTP retrieval failure: HTTP 503 (${app.url("/voice")})`);
  });

  it("a content type that is not markup, text or audio is 12300 Invalid Content-Type", async () => {
    app.on("/voice", { status: 200, body: '{"say":"hi"}', contentType: "application/json" });
    const result = await ringWith(app.url("/voice"));
    expect(result.codes).toEqual([12300]);
    expect(result.messages[0]).toMatch(/^Invalid Content-Type: application\/json/);
    expect(result.errorCode).toBe("12300");
  });

  it("text/plain is read out as Twilio does", async () => {
    app.on("/voice", { status: 200, body: "Thanks for calling", contentType: "text/plain" });
    const spoken = await ringWith(app.url("/voice"));
    expect(spoken.codes).toEqual([]);
    expect(spoken.heard).toEqual(["Thanks for calling"]);
  });
});
