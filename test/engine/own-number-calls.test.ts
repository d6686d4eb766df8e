// Dialling the sandbox's own incoming numbers: a real inbound call on that number, its markup run, bridged with the dialler.
import { describe, expect, it } from "vitest";
import { maxOwnNumberHops } from "../../src/engine/calls/own-number-calls.js";
import { fixtures } from "../support/fixtures.js";
import { twiml, useEngine } from "./harness.js";

const globexNumber = fixtures.available.us;

describe("calls to the sandbox's own numbers", () => {
  const h = useEngine();
  const globex = () => h.door.twilioClient(fixtures.globex.sid, fixtures.globex.authToken);
  const acme = () => h.door.twilioClient();
  /** The carrier gives Globex a number from the inventory, pointed at the app's `/globex`. */
  const globexLine = () =>
    h.door
      .twilioClient(fixtures.globex.sid, fixtures.carrierKey)
      .incomingPhoneNumbers.create({ phoneNumber: globexNumber, voiceUrl: h.app.url("/globex") });

  it("a Dial to another account's number rings it as an inbound call running its own markup, bridged with the leg", async () => {
    const line = await globexLine();
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      twiml((r) => r.dial({ action: "/dialed", callerId: fixtures.acme.mainNumber }, globexNumber)),
    );
    h.app.on(
      "/globex",
      twiml((r) => {
        r.say("Thanks for calling Globex");
        r.pause({ length: 10 });
      }),
    );
    h.app.on(
      "/dialed",
      twiml(() => {}),
    );
    const parent = await h.ringMainNumber();
    await h.run();

    const dialed = h.app.received("/dialed")[0]!.params;
    const legSid = dialed.DialCallSid!;
    // Globex sees one inbound call on its number, from Acme's caller ID; its voice_url was fetched ringing.
    const globexCalls = await globex().calls.list();
    expect(globexCalls).toHaveLength(1);
    const inbound = globexCalls[0]!;
    expect(inbound).toMatchObject({
      direction: "inbound",
      from: fixtures.acme.mainNumber,
      to: globexNumber,
      phoneNumberSid: line.sid,
      status: "completed",
      accountSid: fixtures.globex.sid,
    });
    expect(h.app.received("/globex")[0]!.params).toMatchObject({
      CallSid: inbound.sid,
      AccountSid: fixtures.globex.sid,
      Direction: "inbound",
      CallStatus: "ringing",
    });
    // Acme sees its caller and the outbound-dial leg, not Globex's call; Globex cannot read Acme's leg.
    const acmeCalls = (await acme().calls.list()).map((c) => c.sid).sort();
    expect(acmeCalls).toEqual([parent, legSid].sort());
    await expect(globex().calls(legSid).fetch()).rejects.toMatchObject({ status: 404 });
    // Globex's markup ran for 12 s (Say of 4 words, Pause 10) and then hung up: the bridge ended with it.
    expect(dialed).toMatchObject({
      DialCallStatus: "completed",
      DialBridged: "true",
      DialCallDuration: "12",
    });
    const leg = await acme().calls(legSid).fetch();
    expect(leg).toMatchObject({ direction: "outbound-dial", status: "completed", duration: "12" });
    expect(inbound.duration).toBe("12");
    // Billed per leg: each account pays for its own.
    expect(Number(leg.price)).toBeLessThan(0);
    expect(Number(inbound.price)).toBeLessThan(0);
  });

  it("an API call with SendDigits reaches the number's Gather as DTMF", async () => {
    await globexLine();
    h.app.on(
      "/globex",
      twiml((r) => {
        r.gather({ numDigits: 2, action: "/menu", timeout: 5 }).say("Enter your code");
      }),
    );
    h.app.on(
      "/menu",
      twiml((r) => r.say("Code accepted")),
    );
    h.app.on(
      "/agent",
      twiml((r) => r.pause({ length: 30 })),
    );
    const call = await acme().calls.create({
      to: globexNumber,
      from: fixtures.acme.mainNumber,
      url: h.app.url("/agent"),
      sendDigits: "w42",
    });
    await h.run();
    const menu = h.app.received("/menu")[0]!.params;
    expect(menu.Digits).toBe("42");
    expect(menu.AccountSid).toBe(fixtures.globex.sid);
    expect(h.app.received("/agent")[0]!.params).toMatchObject({
      CallSid: call.sid,
      Direction: "outbound-api",
    });
    // Globex's call ended after "Code accepted"; the API call was hung up with it.
    const done = await acme().calls(call.sid).fetch();
    expect(done.status).toBe("completed");
  });

  it("a number whose markup rejects the call makes the Dial busy, and neither side is billed", async () => {
    await globexLine();
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      twiml((r) => r.dial({ action: "/dialed" }, globexNumber)),
    );
    h.app.on(
      "/globex",
      twiml((r) => r.reject({ reason: "busy" })),
    );
    h.app.on(
      "/dialed",
      twiml(() => {}),
    );
    await h.ringMainNumber();
    await h.run();
    const dialed = h.app.received("/dialed")[0]!.params;
    expect(dialed.DialCallStatus).toBe("busy");
    const [inbound] = await globex().calls.list();
    expect(inbound).toMatchObject({ status: "busy", price: null });
    expect(await acme().calls(dialed.DialCallSid!).fetch()).toMatchObject({ status: "busy", price: null });
  });

  it("a dialler that gives up (timeout) cancels the inbound call still ringing", async () => {
    await globexLine();
    await h.routeMainNumber("/voice");
    h.app.on(
      "/voice",
      twiml((r) => r.dial({ action: "/dialed", timeout: 5 }, globexNumber)),
    );
    // Globex keeps the caller ringing: its Dial with answerOnBridge rings a party that never answers.
    h.app.on(
      "/globex",
      twiml((r) => r.dial({ answerOnBridge: true }, "+15005550003")),
    );
    h.app.on(
      "/dialed",
      twiml(() => {}),
    );
    await h.ringMainNumber();
    await h.run();
    expect(h.app.received("/dialed")[0]!.params.DialCallStatus).toBe("no-answer");
    const [inbound] = await globex().calls.list({ to: globexNumber });
    expect(inbound!.status).toBe("canceled");
  });

  it("a number whose markup dials itself stops after a bounded number of hops instead of ringing forever", async () => {
    await h.routeMainNumber("/loop");
    h.app.on(
      "/loop",
      twiml((r) => r.dial({ callerId: fixtures.acme.mainNumber, timeout: 5 }, fixtures.acme.mainNumber)),
    );
    const first = await h.ringMainNumber();
    await h.run();
    const calls = h.door.sandbox.store.calls.all();
    // Each hop is an inbound call plus the leg that dialled it; the last leg fails instead of ringing on.
    expect(calls.length).toBe(1 + 2 * maxOwnNumberHops + 1);
    const failed = calls.filter((c) => c.status === "failed");
    expect(failed).toHaveLength(1);
    expect(h.door.sandbox.calls.timeline(failed[0]!.sid).map((e) => e.kind)).toContain("own-number.loop");
    expect(h.door.sandbox.store.calls.get(first)!.status).toBe("completed");
  });
});
