// The phone API, as a user's test reads: an IVR menu, a voicemail, an SMS auto-reply and a call back, top to bottom like the calls.
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, it } from "vitest";
import { createSandbox } from "../../src/index.js";

// The app under test: a small voice and SMS app, served here by MSW (in a real suite, your app's handlers).
const app = "https://acme-app.example.test";
const twiml = (body: string) =>
  new HttpResponse(`<Response>${body}</Response>`, { headers: { "content-type": "text/xml" } });
const appHandlers = [
  http.post(`${app}/voice`, () =>
    twiml(
      '<Gather numDigits="1" action="/menu"><Say>Welcome to Acme. For opening hours press 1. To leave a message press 2.</Say></Gather>',
    ),
  ),
  http.post(`${app}/menu`, async ({ request }) => {
    const digits = (await request.formData()).get("Digits");
    if (digits === "1") return twiml("<Say>We are open nine to five, Monday to Friday.</Say><Hangup/>");
    return twiml(
      '<Say>Please leave your message after the beep.</Say><Record action="/recorded" maxLength="60"/>',
    );
  }),
  http.post(`${app}/recorded`, () => twiml("<Say>Thank you, goodbye.</Say><Hangup/>")),
  http.post(`${app}/sms`, () =>
    twiml("<Message>Thanks! We will get back to you within one business day.</Message>"),
  ),
  http.post(`${app}/callback`, () =>
    twiml(
      '<Gather numDigits="1" action="/confirmed"><Say>This is Acme returning your call. Press 1 to talk to us now.</Say></Gather>',
    ),
  ),
  http.post(`${app}/confirmed`, () => twiml("<Say>Connecting you now.</Say><Hangup/>")),
];

const sandbox = createSandbox();
const server = setupServer(...sandbox.handlers, ...appHandlers);
const acme = { sid: "AC11111111111111111111111111111111", token: "acme_auth_token_1111111111111111" };
const acmeNumber = "+14155550100";
const alice = "+14155550123";

/** The app's own setup: Acme's number sends calls and texts to the app. */
async function pointNumberAtApp() {
  const auth = `Basic ${Buffer.from(`${acme.sid}:${acme.token}`).toString("base64")}`;
  const base = `${sandbox.baseUrl}/2010-04-01/Accounts/${acme.sid}`;
  const numbers = await (
    await fetch(`${base}/IncomingPhoneNumbers.json`, { headers: { authorization: auth } })
  ).json();
  const sid = numbers.incoming_phone_numbers.find(
    (n: { phone_number: string }) => n.phone_number === acmeNumber,
  ).sid;
  await fetch(`${base}/IncomingPhoneNumbers/${sid}.json`, {
    method: "POST",
    headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ VoiceUrl: `${app}/voice`, SmsUrl: `${app}/sms` }),
  });
}

/** The app calls a customer back (what a "call me back" button would do). */
async function appCallsBack(to: string) {
  await fetch(`${sandbox.baseUrl}/2010-04-01/Accounts/${acme.sid}/Calls.json`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${acme.sid}:${acme.token}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ From: acmeNumber, To: to, Url: `${app}/callback` }),
  });
}

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  await pointNumberAtApp();
});
// Anything a phone got that the test did not expect fails the test.
afterEach(() => sandbox.phones.verify());
afterAll(() => server.close());

describe("Acme's phone line", () => {
  it("a caller asks for the opening hours", async () => {
    await sandbox
      .call({ from: alice, to: acmeNumber })
      .expectSay("For opening hours press 1")
      .press("1")
      .expectSay("We are open nine to five")
      .expectHangup();
  });

  it("a caller leaves a voicemail", async () => {
    await sandbox
      .call({ from: alice, to: acmeNumber })
      .expectSay(/leave a message press 2/)
      .press("2")
      .expectSay("Please leave your message after the beep.")
      .expectBeep()
      .speak("Hi, it's Alice, please call me back")
      .hangUp();
  });

  it("a text gets an automatic reply", async () => {
    const phone = sandbox.phone(alice);
    await phone.sendSms(acmeNumber, "Are you open on Sunday?");
    await phone.expectSms(/within one business day/);
  });

  it("the app calls a customer back, who answers and presses 1", async () => {
    const bob = sandbox.phone("+14155550199");
    await appCallsBack(bob.number);
    await bob
      .expectCall({ from: acmeNumber })
      .answer()
      .expectSay("This is Acme returning your call")
      .press("1")
      .expectSay("Connecting you now")
      .expectHangup();
  });
});
