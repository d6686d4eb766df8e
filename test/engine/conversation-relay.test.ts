// <Connect><ConversationRelay>: the text protocol with a real WebSocket app in the test process, through both doors.
import twilio from "twilio";
import { describe, expect, it, vi } from "vitest";
import { createSandbox } from "../../src/index.js";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";
import { startStreamApp } from "../support/stream-app.js";
import { appBase, callee, useStreamWorld } from "../support/stream-world.js";

const { VoiceResponse } = twilio.twiml;

for (const doorName of doorNames) {
  describe(`<Connect><ConversationRelay> through the ${doorName} door`, () => {
    const door = useDoor(doorName);
    const w = useStreamWorld(door, { "/relay-done": "<Response><Say>Transferring you now</Say></Response>" });
    const app = w.app;
    const run = w.run;
    /** <Connect action="/relay-done"><ConversationRelay url ...><Parameter .../></ConversationRelay></Connect>, then a Say. */
    const relayMarkup = (url: string, attrs: Record<string, string> = {}) => {
      const r = new VoiceResponse();
      const relay = r.connect({ action: `${appBase}/relay-done` }).conversationRelay({ url, ...attrs });
      relay.parameter({ name: "customer", value: "42" });
      r.say("Goodbye");
      return r.toString();
    };
    const place = w.place;
    const heardTexts = (sid: string) => door.sandbox.calls.heard(sid).map((e) => e.text);

    it("sends setup, speaks the greeting, prompts with the caller's words, speaks the app's tokens, and posts the action on end", async () => {
      // The caller answers when the agent stops talking.
      door.sandbox.calls.setParty(callee, { steps: [{ say: "I need billing" }] });
      const relay = await app((message, connection) => {
        if (message.type === "prompt") {
          connection.send({ type: "text", token: "Sure, ", last: false });
          connection.send({ type: "text", token: "connecting you", last: true });
          connection.send({ type: "end", handoffData: '{"reason":"billing"}' });
        }
      });
      const call = await place(relayMarkup(relay.url(), { welcomeGreeting: "Welcome to Acme" }));
      await run();

      const [setup, prompt] = relay.messages();
      expect(setup).toEqual({
        type: "setup",
        sessionId: expect.stringMatching(/^VX[0-9a-f]{32}$/),
        accountSid: fixtures.acme.sid,
        parentCallSid: "",
        callSid: call.sid,
        from: fixtures.acme.mainNumber,
        to: callee,
        forwardedFrom: "",
        callType: "PSTN",
        callerName: "",
        direction: "outbound-api",
        callStatus: "IN-PROGRESS",
        customParameters: { customer: "42" },
      });
      expect(prompt).toEqual({ type: "prompt", voicePrompt: "I need billing", lang: "en-US", last: true });
      // The upgrade request is signed as Twilio signs it: the URL, with the account's auth token.
      const signature = relay.connections[0]!.request.headers["x-twilio-signature"] as string;
      expect(twilio.validateRequest(fixtures.acme.authToken, signature, relay.url(), {})).toBe(true);
      expect(heardTexts(call.sid)).toEqual([
        "Welcome to Acme",
        "Sure, connecting you",
        "Transferring you now",
      ]);
      expect(w.requests("/relay-done")).toEqual([
        expect.objectContaining({
          CallSid: call.sid,
          SessionId: setup!.sessionId,
          SessionStatus: "ended",
          HandoffData: '{"reason":"billing"}',
          SessionDuration: expect.stringMatching(/^\d+$/),
        }),
      ]);
    });

    it("sends keys as dtmf when dtmfDetection is on, and plays the app's audio and digits", async () => {
      door.sandbox.calls.setParty(callee, {
        steps: [
          { on: { verb: "Connect" }, after: "1s", press: "1" },
          { on: { verb: "Connect" }, after: "10s", hangup: true },
        ],
      });
      const relay = await app((message, connection) => {
        if (message.type === "dtmf") {
          connection.send({ type: "text", token: "You pressed one", last: true });
          connection.send({ type: "play", source: "https://example.com/hold.mp3" });
          connection.send({ type: "sendDigits", digits: "12" });
        }
      });
      const call = await place(relayMarkup(relay.url(), { dtmfDetection: "true" }));
      await run();
      expect(relay.messages("dtmf")).toEqual([{ type: "dtmf", digit: "1" }]);
      expect(door.sandbox.calls.heard(call.sid).map((e) => e.text ?? e.url)).toEqual([
        "You pressed one",
        "https://example.com/hold.mp3",
        "12",
      ]);
    });

    it("the caller talking over the agent interrupts it: interrupt says how far it got, then the prompt", async () => {
      const long =
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty";
      door.sandbox.calls.setParty(callee, {
        steps: [{ on: { verb: "Connect" }, after: "2s", say: "stop please", for: "1s" }],
      });
      const relay = await app((message, connection) => {
        if (message.type === "setup") connection.send({ type: "text", token: long, last: true });
        if (message.type === "prompt") connection.send({ type: "end" });
      });
      const call = await door.twilioClient().calls.create({
        to: callee,
        from: fixtures.acme.mainNumber,
        twiml: relayMarkup(relay.url()),
        record: true,
      });
      await run();
      expect(relay.messages().map((m) => m.type)).toEqual(["setup", "interrupt", "prompt"]);
      expect(relay.messages("interrupt")[0]).toEqual({
        type: "interrupt",
        utteranceUntilInterrupt: "one two three four five",
        durationUntilInterruptMs: 2000,
      });
      expect(w.requests("/relay-done")[0]).toMatchObject({ SessionStatus: "ended" });
      expect(door.sandbox.calls.timeline(call.sid).some((e) => e.kind === "relay.interrupt")).toBe(true);
      // The caller heard the reply only until the interrupt: that much is in the call's recording, no more.
      expect(door.sandbox.calls.heard(call.sid)[0]).toMatchObject({
        text: long,
        cut: { ms: 2000, said: "one two three four five" },
      });
      const [recording] = await door.twilioClient().calls(call.sid).recordings.list();
      const stored = door.sandbox.store.recordings.get(recording!.sid)!;
      // Channel 2: the cut reply, then the action's <Say>.
      const agent = stored.speech.filter((span) => span.channel === 2);
      expect(agent.map((span) => span.text)).toEqual(["one two three four five", "Transferring you now"]);
      expect(agent[0]!.end_ms - agent[0]!.start_ms).toBe(2000);
    });

    it("invalid messages get an error message back and alert 64107 once; the session goes on", async () => {
      const relay = await app((message, connection) => {
        if (message.type === "setup") {
          connection.send("nope");
          connection.send({ type: "text" });
          connection.send({ type: "end" });
        }
      });
      const call = await place(relayMarkup(relay.url()));
      await run();
      const errors = relay.messages("error");
      expect(errors).toHaveLength(2);
      expect(errors[1]).toEqual({ type: "error", description: expect.stringContaining("token") });
      expect(door.sandbox.calls.alerts(call.sid)).toEqual([expect.objectContaining({ code: 64107 })]);
      expect(w.requests("/relay-done")[0]).toMatchObject({ SessionStatus: "ended" });
    });

    it("without an action, the app closing the socket runs the next verb (SessionStatus completed)", async () => {
      const relay = await app((message, connection) => {
        if (message.type === "setup") connection.socket.close();
      });
      const call = await place(
        `<Response><Connect><ConversationRelay url="${relay.url()}"/></Connect><Say>After the agent</Say></Response>`,
      );
      await run();
      expect(heardTexts(call.sid)).toEqual(["After the agent"]);
      expect(w.requests("/relay-done")).toEqual([]);
    });

    it("a URL that refuses the upgrade: alert 31920 and the action gets SessionStatus failed", async () => {
      const url = await w.refusingServer("403 Forbidden");
      const call = await place(relayMarkup(url));
      await run();
      expect(door.sandbox.calls.alerts(call.sid).map((a) => a.code)).toEqual([31920]);
      expect(w.requests("/relay-done")[0]).toMatchObject({ SessionStatus: "failed", ErrorCode: "31920" });
      expect(heardTexts(call.sid)).toEqual(["Transferring you now"]);
    });
  });
}

describe("<Connect><ConversationRelay> on the real clock", () => {
  it("speaks the app's answer to setup and follows the action when the app ends the session", async () => {
    const relay = await startStreamApp((message, connection) => {
      if (message.type === "setup") {
        connection.send({ type: "text", token: "Hello from the agent", last: true });
        connection.send({ type: "end", handoffData: "done" });
      }
    });
    const sandbox = createSandbox({ clock: "real" });
    const actions: Record<string, string>[] = [];
    const unregister = sandbox.webhooks.register(`${appBase}/`, (request) => {
      actions.push(request.params);
      return "<Response><Hangup/></Response>";
    });
    try {
      sandbox.calls.setParty(callee, { ringAfter: 0, answerAfter: 0 });
      const r = new VoiceResponse();
      r.connect({ action: `${appBase}/relay-done` }).conversationRelay({ url: relay.url() });
      const res = await sandbox.fetch(
        `${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`,
        {
          method: "POST",
          headers: {
            authorization: `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({
            From: fixtures.acme.mainNumber,
            To: callee,
            Twiml: r.toString(),
          }).toString(),
        },
      );
      const sid = ((await res.json()) as { sid: string }).sid;
      await vi.waitFor(() => expect(sandbox.store.calls.get(sid)?.status).toBe("completed"), {
        timeout: 10_000,
      });
      expect(sandbox.calls.heard(sid).map((e) => e.text)).toEqual(["Hello from the agent"]);
      expect(actions[0]).toMatchObject({ SessionStatus: "ended", HandoffData: "done" });
    } finally {
      unregister();
      sandbox.clock.switchTo("virtual");
      sandbox.reset();
      await relay.close();
    }
  });
});
