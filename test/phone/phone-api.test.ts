// The phone API's promises: expectations on the virtual clock that fail with the call's timeline, and the unexpected noticed.
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCustomerApp } from "../../examples/customer-app/app.mjs";
import {
  connectPhones,
  createNodeListener,
  createSandbox,
  PhoneExpectationError,
  type Sandbox,
} from "../../src/index.js";
import { fixtures } from "../support/fixtures.js";
import { listenLocally } from "../support/local-server.js";
import { phoneApp, sandboxWith } from "../support/phone-sandbox.js";

const app = phoneApp;
const acmeNumber = fixtures.acme.mainNumber;
const alice = "+14155550123";

async function failureOf(pending: PromiseLike<unknown>): Promise<PhoneExpectationError> {
  try {
    await pending;
  } catch (error) {
    expect(error).toBeInstanceOf(PhoneExpectationError);
    return error as PhoneExpectationError;
  }
  throw new Error("the expectation held, but it should not have");
}

const menu =
  '<Response><Say>Hello</Say><Gather numDigits="1" action="/next"><Say>Press 1 for sales</Say></Gather><Say>Bye</Say></Response>';

describe("a caller (sandbox.call)", () => {
  it("hears, presses into the Gather once it listens, and the app gets the digits", async () => {
    const sandbox = await sandboxWith({ voice: menu, next: "<Response><Say>Sales here</Say></Response>" });
    const call = sandbox.call({ from: alice, to: acmeNumber });
    // Pressed while Hello still plays: the key goes in once the Gather listens (its prompt counts).
    await call.press("1").expectSay("Sales here").expectHangup();
    const requests = sandbox.webhooks.deliveries.filter((d) => d.url === `${app}/next`);
    expect(requests.map((r) => r.params.Digits)).toEqual(["1"]);
  });

  it("an expectation that never holds fails after its virtual time-out, with what was heard and the timeline", async () => {
    const sandbox = await sandboxWith({ voice: '<Response><Say>Hello</Say><Pause length="60"/></Response>' });
    const before = sandbox.clock.now();
    const failure = await failureOf(
      sandbox.call({ from: alice, to: acmeNumber }).expectSay(/Press 1/, { timeout: 5000 }),
    );
    expect(failure.message).toMatch(
      /^\+14155550123, call CA[0-9a-f]{32}: expected to hear a Say \/Press 1\/ within 5 s of virtual time\nheard:\n {2}\+0\.000s {2}say "Hello"\ntimeline:\n {2}\+0\.000s {2}call\.created/,
    );
    expect(sandbox.clock.now() - before).toBe(5000);
  });

  it("an expectation fails at once when the call ends without it", async () => {
    const sandbox = await sandboxWith({ voice: "<Response><Say>Goodbye</Say></Response>" });
    const failure = await failureOf(sandbox.call({ from: alice, to: acmeNumber }).expectSay("Welcome"));
    expect(failure.message).toMatch(
      /expected to hear a Say "Welcome", but the call ended completed\nheard:\n {2}\+0\.000s {2}say "Goodbye"/,
    );
  });

  it("heard items are read in order: the same prompt twice needs two expectations", async () => {
    const sandbox = await sandboxWith({ voice: '<Response><Say loop="2">Hi</Say></Response>' });
    await sandbox
      .call({ from: alice, to: acmeNumber })
      .expectSay("Hi")
      .expectSay("Hi")
      .expectNothingMoreHeard();
    const failure = await failureOf(
      sandbox.call({ from: alice, to: acmeNumber }).expectSay("Hi").expectSay("Hi").expectSay("Hi"),
    );
    expect(failure.message).toContain("but the call ended completed");
  });
});

describe("a phone the app calls (sandbox.phone)", () => {
  const placeCall = (sandbox: Sandbox, to: string, twiml: string, extra: Record<string, string> = {}) =>
    sandbox.fetch(`${sandbox.baseUrl}/2010-04-01/Accounts/${fixtures.acme.sid}/Calls.json`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${fixtures.acme.sid}:${fixtures.acme.authToken}`).toString("base64")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ From: acmeNumber, To: to, Twiml: twiml, ...extra }),
    });

  it("expects the call, answers, hears, and hangs up", async () => {
    const sandbox = await sandboxWith({ voice: "<Response/>" });
    const bob = sandbox.phone("+14155550199");
    await placeCall(
      sandbox,
      bob.number,
      '<Response><Say>Your code is 1234</Say><Pause length="30"/></Response>',
    );
    const call = bob
      .expectCall({ from: acmeNumber })
      .answer()
      .expectSay(/code is \d{4}/)
      .hangUp();
    await call;
    expect(sandbox.store.calls.get(call.sid!)?.status).toBe("completed");
    await sandbox.phones.verify();
  });

  it("a voicemail phone: machine detection waits for its greeting and beep, the message comes after", async () => {
    const sandbox = await sandboxWith({ voice: "<Response/>" });
    const voicemail = sandbox.phone("+14155550197", { kind: "machine", greeting: 6000 });
    await placeCall(sandbox, voicemail.number, "<Response><Say>Please call us back</Say></Response>", {
      MachineDetection: "DetectMessageEnd",
    });
    const call = voicemail.expectCall().answer().expectSay("Please call us back");
    await call;
    expect(sandbox.store.calls.get(call.sid!)).toMatchObject({
      answered_by: "machine_end_beep",
      machine_detection_duration: 6500,
    });
    const person = sandbox.phone("+14155550196", { greeting: 0 });
    await placeCall(sandbox, person.number, "<Response><Say>Hello?</Say></Response>", {
      MachineDetection: "Enable",
    });
    const silent = person.expectCall().answer().expectSay("Hello?");
    await silent;
    expect(sandbox.store.calls.get(silent.sid!)?.answered_by).toBe("unknown");
    await sandbox.phones.verify();
  });

  it("a phone set up busy turns the call away; answer() on it says how to set it up", async () => {
    const sandbox = await sandboxWith({ voice: "<Response/>" });
    const busy = sandbox.phone("+14155550198", { pickup: "busy" });
    await placeCall(sandbox, busy.number, "<Response><Say>Hi</Say></Response>");
    await busy.expectCall().reject();
    await placeCall(sandbox, busy.number, "<Response><Say>Hi</Say></Response>");
    expect((await failureOf(busy.expectCall().answer())).message).toContain(
      'was set up to busy calls; create it with { pickup: "answer" }',
    );
    const answering = sandbox.phone("+14155550197");
    await placeCall(sandbox, answering.number, "<Response><Say>Hi</Say></Response>");
    expect((await failureOf(answering.expectCall().reject())).message).toContain(
      "answers calls: the callee's choice is made when the call is dialled",
    );
  });

  it("no call coming fails expectCall after its time-out", async () => {
    const sandbox = await sandboxWith({ voice: "<Response/>" });
    const failure = await failureOf(sandbox.phone("+14155550196").expectCall({ timeout: 2000 }));
    expect(failure.message).toBe("+14155550196: expected a call within 2 s of virtual time; none came");
  });

  it("a call or text no expectation claimed fails verify(), unless the phone allows it", async () => {
    const sandbox = await sandboxWith({
      voice: "<Response/>",
      sms: "<Response><Message>Thanks</Message><Message>Also this</Message></Response>",
    });
    const carol = sandbox.phone("+14155550195");
    await carol.sendSms(acmeNumber, "hello");
    await carol.expectSms("Thanks");
    await expect(sandbox.phones.verify()).rejects.toThrow(
      /\+14155550195 got what no expectation claimed .*\n {2}unexpected SMS SM[0-9a-f]{32} from \+14155550100: "Also this"/,
    );
    const dave = sandbox.phone("+14155550194", { allowUnexpected: true });
    await placeCall(sandbox, dave.number, "<Response><Say>Hi</Say></Response>");
    await carol.expectSms("Also this");
    await sandbox.phones.verify();
  });

  it("after sandbox.reset() phones start anew: ids restart from the seed, and earlier claims do not hide new calls", async () => {
    const sandbox = await sandboxWith({ voice: "<Response/>" });
    const call = async () => {
      const frank = sandbox.phone("+14155550192");
      await placeCall(sandbox, frank.number, "<Response><Say>Hi</Say></Response>");
      const answered = frank.expectCall().answer().expectSay("Hi");
      await answered;
      return answered.sid;
    };
    sandbox.reset();
    const first = await call();
    sandbox.reset();
    // The same sid again: a phone kept from before would take it for the call it already claimed.
    expect(await call()).toBe(first);
    await sandbox.phones.verify();
  });

  it("expectCall({ from }) and expectSms(pattern) fail on something else arriving first", async () => {
    const sandbox = await sandboxWith({
      voice: "<Response/>",
      sms: "<Response><Message>Hi there</Message></Response>",
    });
    const erin = sandbox.phone("+14155550193");
    await erin.sendSms(acmeNumber, "hello");
    expect((await failureOf(erin.expectSms(/code/))).message).toMatch(
      /unexpected SMS SM[0-9a-f]{32} from \+14155550100: "Hi there"; expected a text matching \/code\//,
    );
    await placeCall(sandbox, erin.number, "<Response/>");
    expect((await failureOf(erin.expectCall({ from: "+15005550006" }))).message).toMatch(
      /unexpected outbound-api call CA[0-9a-f]{32} from \+14155550100 \(queued\); expected a call from \+15005550006/,
    );
  });
});

describe("against a standalone server, through its admin API", () => {
  let sandbox: Sandbox;
  let server: Awaited<ReturnType<typeof listenLocally>>;
  let customerApp: Awaited<ReturnType<typeof startCustomerApp>>;

  beforeAll(async () => {
    sandbox = createSandbox();
    server = await listenLocally(createServer(createNodeListener(sandbox.handle)));
    customerApp = await startCustomerApp({ authToken: fixtures.acme.authToken });
    const number = sandbox.store.phoneNumbers.findOne("number", acmeNumber)!;
    await fetch(
      `${server.base}/2010-04-01/Accounts/${fixtures.acme.sid}/IncomingPhoneNumbers/${number.sid}.json`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${fixtures.carrierKey}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ VoiceUrl: `${customerApp.url}/voice` }),
      },
    );
  });
  afterAll(async () => {
    await server.close();
    await customerApp.close();
  });

  it("a caller goes through the example app's menu over real HTTP", async () => {
    const phones = connectPhones({ url: server.base, carrierKey: fixtures.carrierKey });
    await phones
      .call({ from: alice, to: acmeNumber })
      .expectSay("For opening hours press 1")
      .press("1")
      .expectSay("We are open nine to five")
      .expectHangup();
    await phones.verify();
    expect(customerApp.received.map((r) => r.path)).toContain("/voice/menu");
  });
});
