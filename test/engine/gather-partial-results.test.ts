// <Gather partialResultCallback>: interim speech results posted word by word while the callee speaks, before the action.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const callee = "+14155550123";

describe("Gather partial results", () => {
  const h = useEngine();
  const place = () =>
    h.door
      .twilioClient()
      .calls.create({ to: callee, from: fixtures.acme.mainNumber, url: h.app.url("/answer") });

  it("posts each interim result in sequence, signed with the call's parameters, and the final result after them", async () => {
    h.door.sandbox.calls.setParty(callee, { steps: [{ say: "I need a plumber today", for: "5s" }] });
    const r = new VoiceResponse();
    r.gather({
      input: ["speech"],
      action: "/speech",
      partialResultCallback: "/partial",
    }).say("How can I help?");
    h.app.on("/answer", r.toString());
    const call = await place();
    await h.run();

    const partials = h.app.received("/partial");
    expect(
      partials.map((p) => [
        p.params.SequenceNumber,
        p.params.StableSpeechResult,
        p.params.UnstableSpeechResult,
      ]),
    ).toEqual([
      ["1", "", "I"],
      ["2", "I", "I need"],
      ["3", "I need", "I need a"],
      ["4", "I need a", "I need a plumber"],
    ]);
    expect(partials[0]!.params).toMatchObject({ CallSid: call.sid, AccountSid: fixtures.acme.sid });
    expect(
      twilio.validateRequest(
        fixtures.acme.authToken,
        partials[0]!.signature!,
        h.app.url("/partial"),
        partials[0]!.params,
      ),
    ).toBe(true);
    expect(h.app.received("/speech")[0]!.params.SpeechResult).toBe("I need a plumber today");

    // Every partial result was sent before the action request, in order.
    const log = h.door.sandbox.webhooks.list({ callSid: call.sid });
    const paths = log.map((d) => new URL(d.url).pathname).filter((p) => p === "/partial" || p === "/speech");
    expect(paths).toEqual(["/partial", "/partial", "/partial", "/partial", "/speech"]);
    expect(log.filter((d) => d.kind === "partial-result")).toHaveLength(4);
  });

  it("without partialResultCallback nothing is posted before the result", async () => {
    h.door.sandbox.calls.setParty(callee, { steps: [{ say: "Billing please" }] });
    const r = new VoiceResponse();
    r.gather({ input: ["speech"], action: "/speech" });
    h.app.on("/answer", r.toString());
    const call = await place();
    await h.run();
    expect(h.door.sandbox.webhooks.list({ callSid: call.sid, kind: "partial-result" })).toHaveLength(0);
    expect(h.app.received("/speech")[0]!.params.SpeechResult).toBe("Billing please");
  });
});
