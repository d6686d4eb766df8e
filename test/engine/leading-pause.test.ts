// A <Pause> that opens the document delays pickup (Twilio): the call is answered, billed and reported after it.
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const caller = "+14155559876";

describe("a leading Pause", () => {
  const h = useEngine();
  const ringWith = async (markup: string) => {
    await h.routeMainNumber("/voice", { statusCallback: h.app.url("/status") });
    h.app.on("/voice", markup);
    const res = await h.door.call("POST", "/__sandbox/calls/inbound", {
      json: { from: caller, to: fixtures.acme.mainNumber },
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(201);
    await h.run();
    const call = await h.door.twilioClient().calls(res.json.sid).fetch();
    const answeredAt = h.door.sandbox.calls
      .timeline(call.sid)
      .find((e) => e.kind === "status" && e.detail.status === "in-progress")?.at;
    return { call, answeredAfterMs: answeredAt! - call.startTime.getTime() };
  };

  it('<Pause length="5"/><Pause length="3"/><Hangup/> rings 5 s, then lasts 3 s answered', async () => {
    const { call, answeredAfterMs } = await ringWith(
      '<Response><Pause length="5"/><Pause length="3"/><Hangup/></Response>',
    );
    expect(answeredAfterMs).toBe(5000);
    expect(call).toMatchObject({ status: "completed", duration: "3" });
    expect(call.endTime.getTime() - call.startTime.getTime()).toBe(8000);
    const completed = h.app.received("/status").find((r) => r.params.CallStatus === "completed")!;
    expect(completed.params).toMatchObject({ CallDuration: "3" });
  });

  it("the time before pickup is not billed: a minute of leading Pause and 3 s answered cost one minute", async () => {
    const oneMinute = (await ringWith("<Response><Hangup/></Response>")).call.price;
    const { call } = await ringWith('<Response><Pause length="60"/><Pause length="3"/><Hangup/></Response>');
    expect(call.duration).toBe("3");
    expect(call.price).toBe(oneMinute);
  });

  it("a document that is only a Pause picks up at its end and hangs up; before a Reject it never picks up", async () => {
    const { call, answeredAfterMs } = await ringWith('<Response><Pause length="4"/></Response>');
    expect(answeredAfterMs).toBe(4000);
    expect(call).toMatchObject({ status: "completed", duration: "0" });
    const rejected = await ringWith('<Response><Pause length="4"/><Reject reason="busy"/></Response>');
    expect(rejected.call).toMatchObject({ status: "busy", price: null });
    expect(Number.isNaN(rejected.answeredAfterMs)).toBe(true);
  });

  it("a Pause after another verb is silence on an answered call", async () => {
    const { call, answeredAfterMs } = await ringWith('<Response><Say>Hi</Say><Pause length="5"/></Response>');
    expect(answeredAfterMs).toBe(0);
    expect(Number(call.duration)).toBe(6);
  });
});
