// A recorded conference and a queue bridge, run twice with one seed: identical snapshots and delivery logs.
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "../../src/index.js";
import { type CustomerApp, startCustomerApp } from "../support/customer-app.js";
import { fixtures } from "../support/fixtures.js";

const { VoiceResponse } = twilio.twiml;
const agent = "+14155550399";

describe("conference and queue determinism", () => {
  let app: CustomerApp;
  beforeAll(async () => {
    app = await startCustomerApp();
    app.on("/voice", (params) => {
      const r = new VoiceResponse();
      if (params.From === agent) r.dial({ action: "/after" }).queue({ url: "/whisper" }, "support");
      else if (params.From!.endsWith("1") || params.From!.endsWith("2")) {
        r.dial({ action: "/after" }).conference(
          {
            waitUrl: "/wait",
            record: "record-from-start",
            statusCallback: "/conf",
            statusCallbackEvent: ["start", "end", "join", "leave"],
            recordingStatusCallback: "/rec",
          },
          "standup",
        );
      } else r.enqueue({ action: "/queued", waitUrl: "/hold" }, "support");
      return r.toString();
    });
    const wait = new VoiceResponse();
    wait.play("https://app.example.com/music.mp3");
    app.on("/wait", wait.toString());
    const hold = new VoiceResponse();
    hold.say("Please hold");
    app.on("/hold", hold.toString());
    const whisper = new VoiceResponse();
    whisper.say("Connecting you now");
    app.on("/whisper", whisper.toString());
  });
  afterAll(async () => app.close());

  async function runOnce() {
    const sandbox = createSandbox({ seed: 7 });
    const number = sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
    sandbox.store.phoneNumbers.replace({ ...number, voice_url: app.url("/voice") });
    const ring = (from: string, caller: Record<string, unknown>) =>
      sandbox.calls.ring({ from, to: fixtures.acme.mainNumber, caller });
    ring("+14155550201", { steps: [{ at: "8s", say: "Morning all", for: "2s" }], hangupAfter: "40s" });
    ring("+14155550303", { hangupAfter: "3m" });
    await sandbox.clock.advance(4000);
    ring("+14155550202", { steps: [{ at: "6s", say: "Hello there", for: "2s" }], hangupAfter: "30s" });
    await sandbox.clock.advance(20_000);
    ring(agent, {});
    await sandbox.clock.runUntilIdle();
    await sandbox.settle();
    return {
      deliveries: JSON.stringify(sandbox.webhooks.deliveries),
      kinds: sandbox.webhooks.deliveries.map((d) => d.url.replace(app.base, "")),
      snapshot: JSON.stringify(sandbox.snapshot()),
      conferences: sandbox.store.conferences.all(),
    };
  }

  it("plays the same conference and queue twice, byte for byte", async () => {
    const first = await runOnce();
    expect(first.conferences.map((c) => c.status)).toEqual(["completed"]);
    expect(first.kinds).toContain("/rec");
    expect(first.kinds).toContain("/whisper");
    expect(first.kinds).toContain("/queued");
    const second = await runOnce();
    expect(second.deliveries).toBe(first.deliveries);
    expect(second.snapshot).toBe(first.snapshot);
  });
});
