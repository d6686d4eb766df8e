// How a ConversationRelay session ends and what its Connect action is told, when the caller hangs up mid-session, through both doors.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { appBase, callee, useStreamWorld } from "../support/stream-world.js";

const { VoiceResponse } = twilio.twiml;

for (const doorName of doorNames) {
  describe(`ConversationRelay session end through the ${doorName} door`, () => {
    const door = useDoor(doorName);
    const w = useStreamWorld(door, { "/relay-done": "<Response><Say>Never heard</Say></Response>" });
    const markup = (url: string) => {
      const r = new VoiceResponse();
      r.connect({ action: `${appBase}/relay-done` }).conversationRelay({
        url,
        welcomeGreeting: "Hello there",
      });
      return r.toString();
    };

    it("a caller who hangs up mid-session: the socket closes, and the action is still requested with the session's parameters", async () => {
      door.sandbox.calls.setParty(callee, { steps: [{ at: "7s", hangup: true }] });
      const relay = await w.app();
      const call = await w.place(markup(relay.url()));
      await w.run();

      const [setup] = relay.messages("setup");
      expect(w.requests("/relay-done")).toEqual([
        expect.objectContaining({
          CallSid: call.sid,
          CallStatus: "completed",
          SessionId: setup!.sessionId,
          SessionStatus: "completed",
          SessionDuration: "7",
        }),
      ]);
      // The answer to a request made after the hang-up is not run.
      expect(door.sandbox.calls.heard(call.sid).map((h) => h.text)).toEqual(["Hello there"]);
      expect(relay.connections[0]!.socket.readyState).toBeGreaterThanOrEqual(2);
      const ended = door.sandbox.calls.timeline(call.sid).find((e) => e.kind === "relay.ended");
      expect(ended?.detail).toMatchObject({ status: "completed", durationSeconds: 7 });
    });
  });
}
