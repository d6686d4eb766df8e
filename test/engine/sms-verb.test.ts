// <Sms> in voice markup: the text is sent during the call, its action and status callback are requested, the call goes on.
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const caller = "+14155559876";

describe("<Sms> during a call", () => {
  const h = useEngine();
  const ring = async () => {
    const res = await h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: caller, to: fixtures.acme.mainNumber },
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(201);
    await h.run();
    return res.json.sid as string;
  };

  it("sends to the caller from the called number and goes on with the next verb", async () => {
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      `<Response><Sms statusCallback="/sms-status">Your code is 1234</Sms><Say>Check your phone</Say></Response>`,
    );
    const callSid = await ring();
    const [message] = await h.door.twilioClient().messages.list({ to: caller });
    expect(message).toMatchObject({
      direction: "outbound-call",
      from: fixtures.acme.mainNumber,
      to: caller,
      body: "Your code is 1234",
      status: "delivered",
    });
    expect(h.door.sandbox.calls.heard(callSid).map((e) => e.text)).toEqual(["Check your phone"]);
    expect(h.app.received("/sms-status").map((r) => [r.params.SmsSid, r.params.SmsStatus])).toEqual([
      [message!.sid, "sending"],
      [message!.sid, "sent"],
      [message!.sid, "delivered"],
    ]);
  });

  it("with an action, requests it with SmsSid and SmsStatus and runs its answer instead of the next verb", async () => {
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      `<Response><Sms to="+14155550123" action="/sms-done">Meet at noon</Sms><Say>Never heard</Say></Response>`,
    );
    h.app.on("/sms-done", "<Response><Say>Sent it</Say></Response>");
    const callSid = await ring();
    const [message] = await h.door.twilioClient().messages.list({ to: "+14155550123" });
    expect(message).toMatchObject({ direction: "outbound-call", body: "Meet at noon" });
    expect(h.app.received("/sms-done")[0]!.params).toMatchObject({
      CallSid: callSid,
      SmsSid: message!.sid,
      SmsStatus: "sending",
    });
    expect(h.door.sandbox.calls.heard(callSid).map((e) => e.text)).toEqual(["Sent it"]);
  });

  it("an invalid 'to' sends nothing, warns with 14101 and reports SmsStatus=invalid to the action", async () => {
    await h.routeMainNumber("/voice");
    h.app.on("/voice", `<Response><Sms to="not-a-number" action="/sms-done">Hi</Sms></Response>`);
    h.app.on("/sms-done", "<Response><Hangup/></Response>");
    const callSid = await ring();
    expect(await h.door.twilioClient().messages.list({})).toHaveLength(0);
    expect(h.app.received("/sms-done")[0]!.params).toMatchObject({ SmsSid: "", SmsStatus: "invalid" });
    const alerts = h.door.sandbox.calls.alerts(callSid).map((a) => a.code);
    expect(alerts).toContain(14101);
  });
});
