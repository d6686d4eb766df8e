// GET /__sandbox/webhooks through both doors: the delivery log with its filters.
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

describe.each(doorNames)("webhook delivery log via %s", (door) => {
  const ctx = useDoor(door);

  const deliver = async () => {
    const unregister = ctx.sandbox.webhooks.register("https://hooks.example.test/", (request) =>
      request.url.includes("fail") ? { status: 404 } : undefined,
    );
    const base = {
      method: "POST" as const,
      params: { CallStatus: "completed" },
      authToken: fixtures.acme.authToken,
    };
    ctx.sandbox.webhooks.enqueue({
      ...base,
      kind: "call-status",
      url: "https://hooks.example.test/status",
      accountSid: fixtures.acme.sid,
      callSid: "CA01",
    });
    ctx.sandbox.webhooks.enqueue({
      ...base,
      kind: "transcription",
      url: "https://hooks.example.test/fail",
      accountSid: fixtures.acme.sid,
      callSid: "CA02",
    });
    ctx.sandbox.webhooks.enqueue({
      ...base,
      kind: "message-status",
      url: "https://hooks.example.test/status",
      accountSid: fixtures.globex.sid,
      authToken: fixtures.globex.authToken,
      messageSid: "SM01",
    });
    await ctx.sandbox.settle();
    unregister();
  };

  it("lists every attempt with its signature, status and outcome", async () => {
    await deliver();
    const res = await ctx.call("GET", "/__sandbox/webhooks");
    expect(res.status).toBe(200);
    expect(res.json.total).toBe(3);
    expect(res.json.deliveries).toHaveLength(3);
    expect(res.json.deliveries[0]).toMatchObject({
      kind: "call-status",
      attempt: 1,
      method: "POST",
      url: "https://hooks.example.test/status",
      params: { CallStatus: "completed" },
      account_sid: fixtures.acme.sid,
      call_sid: "CA01",
      status: 200,
      outcome: "success",
      error: null,
      sent_at: "2026-01-01T00:00:00.000Z",
      next_attempt_at: null,
    });
    expect(res.json.deliveries[0].signature).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(res.json.deliveries[0].idempotency_token).toBe(res.json.deliveries[0].id);
  });

  it("filters by call, account, kind and outcome, and keeps the last `limit`", async () => {
    await deliver();
    const sids = async (query: string) =>
      (await ctx.call("GET", `/__sandbox/webhooks?${query}`)).json.deliveries.map(
        (d: { call_sid: string | null; message_sid: string | null }) => d.call_sid ?? d.message_sid,
      );
    expect(await sids("call_sid=CA02")).toEqual(["CA02"]);
    expect(await sids(`account_sid=${fixtures.globex.sid}`)).toEqual(["SM01"]);
    expect(await sids("kind=transcription")).toEqual(["CA02"]);
    expect(await sids("status=http-error")).toEqual(["CA02"]);
    expect(await sids("status=success")).toEqual(["CA01", "SM01"]);
    expect(await sids("limit=1")).toEqual(["SM01"]);
    expect(await sids("message_sid=SM01")).toEqual(["SM01"]);
  });

  it("answers 400 to an unknown filter value or parameter", async () => {
    for (const query of ["kind=sms", "status=ok", "limit=0", "limit=ten", "callsid=CA01"]) {
      const res = await ctx.call("GET", `/__sandbox/webhooks?${query}`);
      expect(res.status, query).toBe(400);
    }
  });

  it("is emptied by DELETE and by a reset", async () => {
    await deliver();
    expect((await ctx.call("DELETE", "/__sandbox/webhooks")).status).toBe(200);
    expect((await ctx.call("GET", "/__sandbox/webhooks")).json.total).toBe(0);
    await deliver();
    await ctx.call("POST", "/__sandbox/reset", { json: {}, headers: { "content-type": "application/json" } });
    expect((await ctx.call("GET", "/__sandbox/webhooks")).json.total).toBe(0);
  });
});
