// Dial noun url (whisper): markup on the answered leg before the bridge; it ends to connect, <Hangup> turns the call away.
import { describe, expect, it } from "vitest";
import { twiml, useEngine } from "./harness.js";

describe("Dial whisper url", () => {
  const h = useEngine();

  it("runs the noun's url on the answered leg only, then bridges when that markup ends", async () => {
    await h.routeMainNumber("/voice");
    h.door.sandbox.calls.setParty("+14155550111", { answerAfter: "4s", hangupAfter: "30s" });
    h.app.on(
      "/voice",
      twiml((r) => r.dial({ action: "/dialed" }).number({ url: "/whisper", method: "GET" }, "+14155550111")),
    );
    h.app.on(
      "/whisper",
      twiml((r) => r.say("Call from the sandbox line")),
    );
    h.app.on(
      "/dialed",
      twiml(() => {}),
    );
    const parent = await h.ringMainNumber();
    await h.run();

    const whisper = h.app.received("/whisper");
    expect(whisper).toHaveLength(1);
    const action = h.app.received("/dialed")[0]!.params;
    expect(whisper[0]!.method).toBe("GET");
    expect(whisper[0]!.params).toMatchObject({
      CallSid: action.DialCallSid,
      ParentCallSid: parent,
      Direction: "outbound-dial",
      CallStatus: "in-progress",
      To: "+14155550111",
    });
    // The agent heard the whisper; the caller did not.
    expect(h.door.sandbox.calls.heard(action.DialCallSid!).map((e) => e.text)).toEqual([
      "Call from the sandbox line",
    ]);
    expect(h.door.sandbox.calls.heard(parent)).toEqual([]);
    // The bridge starts after the whisper (5 words at 400 ms, 2 s): the leg hung up 30 s after its answer.
    expect(action).toMatchObject({
      DialCallStatus: "completed",
      DialBridged: "true",
      DialCallDuration: "28",
    });
    const kinds = h.door.sandbox.calls.timeline(action.DialCallSid!).map((e) => e.kind);
    expect(kinds.indexOf("whisper.start")).toBeLessThan(kinds.indexOf("whisper.end"));
  });

  it("a Gather in the whisper lets the agent accept with a key", async () => {
    await h.routeMainNumber("/voice");
    h.door.sandbox.calls.setParty("+14155550112", {
      hangupAfter: "20s",
      steps: [{ on: { verb: "Gather" }, after: "1s", press: "1" }],
    });
    h.app.on(
      "/voice",
      twiml((r) => r.dial({ action: "/dialed" }).number({ url: "/screen" }, "+14155550112")),
    );
    h.app.on(
      "/screen",
      twiml((r) => {
        r.gather({ numDigits: 1, action: "/screened" }).say("Press 1 to accept");
        r.hangup();
      }),
    );
    h.app.on("/screened", (params) => twiml((r) => (params.Digits === "1" ? undefined : r.hangup())));
    h.app.on(
      "/dialed",
      twiml(() => {}),
    );
    await h.ringMainNumber();
    await h.run();
    expect(h.app.received("/screened")[0]!.params.Digits).toBe("1");
    expect(h.app.received("/dialed")[0]!.params).toMatchObject({
      DialCallStatus: "completed",
      DialBridged: "true",
    });
  });

  it("a Hangup in the whisper turns the call away: the leg completes unbridged and the Dial says so", async () => {
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      twiml((r) => r.dial({ action: "/dialed" }).number({ url: "/reject" }, "+14155550113")),
    );
    h.app.on(
      "/reject",
      twiml((r) => {
        r.say("Not now");
        r.hangup();
      }),
    );
    const after = twiml((r) => r.say("Nobody is free"));
    h.app.on("/dialed", after);
    const parent = await h.ringMainNumber();
    await h.run();
    const action = h.app.received("/dialed")[0]!.params;
    expect(action).toMatchObject({
      DialCallStatus: "completed",
      DialBridged: "false",
      DialCallDuration: "0",
    });
    const leg = await h.door.twilioClient().calls(action.DialCallSid!).fetch();
    expect(leg).toMatchObject({ status: "completed", parentCallSid: parent, to: "+14155550113" });
    expect(h.door.sandbox.calls.heard(parent).map((e) => e.text)).toEqual(["Nobody is free"]);
  });

  it("while one leg's whisper runs the other nouns keep ringing; the first whisper to end wins", async () => {
    await h.routeMainNumber("/voice");
    h.door.sandbox.calls.setParty("+14155550114", { answerAfter: "2s" });
    h.door.sandbox.calls.setParty("+14155550115", { answerAfter: "5s", hangupAfter: "10s" });
    h.app.on(
      "/voice",
      twiml((r) => {
        const d = r.dial({ action: "/dialed" });
        d.number({ url: "/reject" }, "+14155550114");
        d.number("+14155550115");
      }),
    );
    h.app.on(
      "/reject",
      twiml((r) => r.hangup()),
    );
    h.app.on(
      "/dialed",
      twiml(() => {}),
    );
    await h.ringMainNumber();
    await h.run();
    const action = h.app.received("/dialed")[0]!.params;
    const winner = await h.door.twilioClient().calls(action.DialCallSid!).fetch();
    expect(winner.to).toBe("+14155550115");
    expect(action).toMatchObject({
      DialCallStatus: "completed",
      DialBridged: "true",
      DialCallDuration: "10",
    });
  });
});
