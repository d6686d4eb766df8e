// ConversationRelay's `setup` message: "ConversationRelay sends this message immediately after establishing the
// WebSocket connection", and Twilio's example of it, an inbound call connected to the relay, says "callStatus": "RINGING".
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";
import { appBase, useStreamWorld } from "../support/stream-world.js";

const { VoiceResponse } = twilio.twiml;

describe("ConversationRelay setup: callStatus", () => {
  const door = useDoor("express");
  const answers: Record<string, string> = {};
  const w = useStreamWorld(door, answers);

  /** Rings Acme's main number, whose markup is `before` verbs then a relay to a fresh app; the setup message. */
  const inboundSetup = async (before: (r: InstanceType<typeof VoiceResponse>) => void) => {
    const relay = await w.app((message, connection) => {
      if (message.type === "setup") connection.send({ type: "end" });
    });
    const r = new VoiceResponse();
    before(r);
    r.connect().conversationRelay({ url: relay.url() });
    answers["/voice"] = r.toString();
    const client = door.twilioClient();
    const [number] = await client.incomingPhoneNumbers.list({ phoneNumber: fixtures.acme.mainNumber });
    await client.incomingPhoneNumbers(number!.sid).update({ voiceUrl: `${appBase}/voice` });
    const call = door.sandbox.calls.ring({ from: "+14155559876", to: fixtures.acme.mainNumber });
    await w.run();
    const setup = relay.messages().find((m) => m.type === "setup")!;
    return { call, setup };
  };

  it("an inbound call whose <Connect> picks it up: RINGING, as in Twilio's example", async () => {
    const { call, setup } = await inboundSetup(() => undefined);
    expect(setup).toMatchObject({
      type: "setup",
      callSid: call.sid,
      direction: "inbound",
      callStatus: "RINGING",
    });
  });

  it("an inbound call answered before, by a verb that took time: IN-PROGRESS", async () => {
    const { setup } = await inboundSetup((r) => r.say("Please hold while we connect you"));
    expect(setup).toMatchObject({ direction: "inbound", callStatus: "IN-PROGRESS" });
  });

  it("an outbound call, answered before its markup ran: IN-PROGRESS", async () => {
    const relay = await w.app();
    const r = new VoiceResponse();
    r.connect().conversationRelay({ url: relay.url() });
    await w.place(r.toString());
    await w.run();
    expect(relay.messages()[0]).toMatchObject({
      type: "setup",
      direction: "outbound-api",
      callStatus: "IN-PROGRESS",
    });
  });
});
