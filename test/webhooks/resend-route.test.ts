// POST /__sandbox/webhooks/{id}/resend through both doors: a logged delivery sent again, signed anew, answered with its attempt.
import { describe, expect, it } from "vitest";
import { computeSignature } from "../../src/index.js";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

describe.each(doorNames)("resending a webhook via %s", (door) => {
  const ctx = useDoor(door);
  const url = "https://hooks.example.test/status";

  /** Delivers one status callback to an in-process receiver answering `status`; gives the receiver's log. */
  const deliverOnce = async (accountSid: string = fixtures.acme.sid, status = 200) => {
    const received: { url: string; body: string; signature: string | null }[] = [];
    const unregister = ctx.sandbox.webhooks.register("https://hooks.example.test/", (request) => {
      received.push({
        url: request.url,
        body: request.body,
        signature: request.headers["x-twilio-signature"] ?? null,
      });
      return { status, body: "thanks" };
    });
    ctx.sandbox.webhooks.enqueue({
      kind: "call-status",
      method: "POST",
      url,
      params: { CallSid: "CA01", CallStatus: "completed" },
      accountSid,
      authToken: fixtures.acme.authToken,
      callSid: "CA01",
    });
    await ctx.sandbox.settle();
    const first = (await ctx.call("GET", "/__sandbox/webhooks")).json.deliveries[0];
    return { received, first, unregister };
  };
  const resend = (id: string) =>
    ctx.call("POST", `/__sandbox/webhooks/${id}/resend`, {
      json: {},
      headers: { "content-type": "application/json" },
    });

  it("sends the same parameters again as a new delivery and answers with its attempt", async () => {
    const { received, first, unregister } = await deliverOnce();
    const res = await resend(first.id);
    unregister();
    expect(res.status).toBe(200);
    expect(res.json.resent_from).toBe(first.id);
    expect(res.json.delivery).toMatchObject({
      kind: "call-status",
      url,
      params: { CallSid: "CA01", CallStatus: "completed" },
      call_sid: "CA01",
      status: 200,
      outcome: "success",
      response_body: "thanks",
    });
    expect(res.json.delivery.id).not.toBe(first.id);
    expect(received).toHaveLength(2);
    expect(received[1]!.body).toBe(received[0]!.body);
    const signed = computeSignature(fixtures.acme.authToken, url, {
      CallSid: "CA01",
      CallStatus: "completed",
    });
    expect(received[1]!.signature).toBe(signed);
    const log = (await ctx.call("GET", "/__sandbox/webhooks")).json;
    expect(log.total).toBe(2);
  });

  it("shows a failing receiver's answer on the new attempt", async () => {
    const { first, unregister } = await deliverOnce(fixtures.acme.sid, 404);
    const res = await resend(first.id);
    unregister();
    expect(res.status).toBe(200);
    expect(res.json.delivery).toMatchObject({ status: 404, outcome: "http-error", error: "HTTP 404" });
  });

  it("answers 404 to a delivery the log does not hold", async () => {
    const res = await resend("WH00000000000000000000000000000099");
    expect(res.status).toBe(404);
    expect(res.json.error.status).toBe(404);
  });

  it("answers 409 when the delivery's account is gone, sending nothing", async () => {
    const { received, first, unregister } = await deliverOnce("AC99999999999999999999999999999999");
    const res = await resend(first.id);
    unregister();
    expect(res.status).toBe(409);
    expect(res.json.error.message).toContain("no longer exists");
    expect(received).toHaveLength(1);
  });

  it("answers 400 to a body with unknown fields", async () => {
    const { first, unregister } = await deliverOnce();
    const res = await ctx.call("POST", `/__sandbox/webhooks/${first.id}/resend`, {
      json: { again: true },
      headers: { "content-type": "application/json" },
    });
    unregister();
    expect(res.status).toBe(400);
  });
});

describe.each(doorNames)("resending a webhook with an admin token via %s", (door) => {
  const ctx = useDoor(door, { adminToken: "admin-secret" });

  it("needs the admin token", async () => {
    const res = await ctx.call("POST", "/__sandbox/webhooks/WH00000000000000000000000000000001/resend", {
      json: {},
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(401);
    const authorized = await ctx.call(
      "POST",
      "/__sandbox/webhooks/WH00000000000000000000000000000001/resend",
      {
        json: {},
        auth: { bearer: "admin-secret" },
        headers: { "content-type": "application/json" },
      },
    );
    expect(authorized.status).toBe(404);
  });
});
