// A ten-minute call plays in milliseconds on the virtual clock, and the same run twice gives identical output.
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { type CustomerApp, startCustomerApp } from "../support/customer-app.js";
import { fixtures } from "../support/fixtures.js";

const { VoiceResponse } = twilio.twiml;

describe("determinism", () => {
  let app: CustomerApp;
  beforeAll(async () => {
    app = await startCustomerApp();
    const first = new VoiceResponse();
    first.say("Please hold");
    first.pause({ length: 240 });
    first.record({
      action: "/recorded",
      transcribe: true,
      transcribeCallback: "/transcribed",
      maxLength: 300,
    });
    app.on("/voice", first.toString());
    const done = new VoiceResponse();
    done.pause({ length: 360 });
    done.say("Goodbye");
    app.on("/recorded", done.toString());
  });
  afterAll(async () => app.close());

  async function runOnce() {
    const sandbox = createSandbox({ seed: 42 });
    const auth = `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`;
    const list = await sandbox.fetch(
      `${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers.json`,
      { headers: { authorization: auth } },
    );
    const sid = ((await list.json()) as { incoming_phone_numbers: { sid: string }[] })
      .incoming_phone_numbers[0]!.sid;
    await sandbox.fetch(
      `${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers/${sid}.json`,
      {
        method: "POST",
        headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          VoiceUrl: app.url("/voice"),
          StatusCallback: app.url("/status"),
        }).toString(),
      },
    );
    const call = sandbox.calls.ring({
      from: "+14155559876",
      to: fixtures.acme.mainNumber,
      caller: {
        steps: [{ on: { verb: "Record" }, after: "2s", say: "Call me back about the invoice", for: "4s" }],
      },
    });
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    const deliveries = sandbox.webhooks.deliveries;
    return {
      call: sandbox.store.calls.get(call.sid)!,
      deliveries,
      snapshot: JSON.stringify(sandbox.snapshot()),
    };
  }

  it("plays a ten-minute call with pauses, a recording and a transcription, identically twice", async () => {
    const first = await runOnce();
    expect(first.call.status).toBe("completed");
    expect(first.call.duration).toBeGreaterThanOrEqual(600);
    expect(first.deliveries.map((d) => d.kind)).toEqual([
      "voice-markup",
      "voice-markup",
      "transcription",
      "call-status",
    ]);
    expect(first.deliveries[2]!.params.TranscriptionText).toBe("Call me back about the invoice");
    const second = await runOnce();
    expect(JSON.stringify(second.deliveries)).toBe(JSON.stringify(first.deliveries));
    expect(second.snapshot).toBe(first.snapshot);
  });
});
