// A call redirected or hung up through the API while it streams: the app gets stop, the socket closes, the new markup runs.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { appBase, useStreamWorld } from "../support/stream-world.js";

const { VoiceResponse } = twilio.twiml;

for (const doorName of doorNames) {
  describe(`streams interrupted by the API through the ${doorName} door`, () => {
    const door = useDoor(doorName);
    const w = useStreamWorld(door);

    it("a redirect while <Connect><Stream> runs stops the stream and runs the new markup", async () => {
      const app = await w.app();
      const r = new VoiceResponse();
      r.connect().stream({ url: app.url(), statusCallback: `${appBase}/stream-status` });
      r.say("Never reached");
      const call = await w.place(r.toString());
      await door.sandbox.clock.advance(5000);
      await door
        .twilioClient()
        .calls(call.sid)
        .update({ twiml: new VoiceResponse().say("Redirected away").toString() });
      await w.run();
      expect(app.messages().at(-1)).toMatchObject({ event: "stop", stop: { callSid: call.sid } });
      expect(door.sandbox.calls.heard(call.sid).map((e) => e.text)).toEqual(["Redirected away"]);
      expect(w.streamCallbacks().map((c) => c.StreamEvent)).toEqual(["stream-started", "stream-stopped"]);
    });

    it("hanging up through the API during a ConversationRelay session closes its socket", async () => {
      const app = await w.app();
      const r = new VoiceResponse();
      r.connect().conversationRelay({ url: app.url(), welcomeGreeting: "Hello" });
      const call = await w.place(r.toString());
      await door.sandbox.clock.advance(5000);
      await door.twilioClient().calls(call.sid).update({ status: "completed" });
      await w.run();
      expect(app.messages().map((m) => m.type)).toEqual(["setup"]);
      await expect.poll(() => app.connections[0]!.socket.readyState).toBe(3);
      expect((await door.twilioClient().calls(call.sid).fetch()).status).toBe("completed");
    });
  });
}
