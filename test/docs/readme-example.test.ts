// The README's copy-paste test, as it stands there (code-blocks.test.ts keeps the two identical but for the import path).
import { setupServer } from "msw/node";
import twilio from "twilio";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { createSandbox, failOnUnhandled, type ReceivedWebhook, validateSignature } from "../../src/index.js";

// The sandbox: default fixtures (account Acme, number +14155550100), virtual clock, seeded ids.
const sandbox = createSandbox();
const server = setupServer(...sandbox.handlers);

// Acme's credentials from the default fixtures.
const accountSid = "AC11111111111111111111111111111111";
const authToken = "acme_auth_token_1111111111111111";
const client = twilio(accountSid, authToken);
client.api.baseUrl = sandbox.baseUrl;

// Your app's webhooks, answered in-process: every request the sandbox makes lands here.
const received: ReceivedWebhook[] = [];
sandbox.webhooks.register("https://app.example.test/", (request) => {
  received.push(request);
  if (request.url.endsWith("/voice"))
    return `<Response>
      <Say>Leave a message after the beep</Say>
      <Record action="/voicemail" recordingStatusCallback="/recording"/>
    </Response>`;
  if (request.url.endsWith("/voicemail")) return "<Response><Say>Thank you</Say><Hangup/></Response>";
  return { status: 204 };
});

beforeAll(() => server.listen(failOnUnhandled)); // an unmatched request fails the test (msw 2 and 3)
afterAll(() => server.close());
beforeEach(() => {
  sandbox.reset(); // back to the fixtures, ids restart from the seed
  received.length = 0;
});

const signed = (request: ReceivedWebhook) =>
  validateSignature(authToken, request.headers["x-twilio-signature"] ?? "", request.url, request.params);

test("a message is sent and delivered, with signed status callbacks", async () => {
  const message = await client.messages.create({
    from: "+14155550100",
    to: "+15558675310",
    body: "Your code is 1234",
    statusCallback: "https://app.example.test/sms-status",
  });
  expect(message.status).toBe("queued");

  await sandbox.clock.runUntilIdle(); // plays the whole delivery on the virtual clock
  await sandbox.settle(); // waits until no webhook is in flight

  expect(received.map((r) => r.params.MessageStatus)).toEqual(["sending", "sent", "delivered"]);
  expect(received.every(signed)).toBe(true);
  expect((await client.messages(message.sid).fetch()).status).toBe("delivered");
});

test("an inbound call leaves a voicemail", async () => {
  const [number] = await client.incomingPhoneNumbers.list({ phoneNumber: "+14155550100" });
  await client.incomingPhoneNumbers(number!.sid).update({ voiceUrl: "https://app.example.test/voice" });

  // A caller rings the number, hears the prompt and speaks after the beep.
  const call = sandbox.calls.ring({ from: "+14155550123", to: "+14155550100" });
  await sandbox.clock.runUntilIdle();
  await sandbox.settle();

  expect((await client.calls(call.sid).fetch()).status).toBe("completed");
  const recordings = await client.recordings.list({ callSid: call.sid });
  expect(recordings).toHaveLength(1);
  const [recording] = recordings;
  expect(recording).toMatchObject({ callSid: call.sid, status: "completed", source: "RecordVerb" });

  const voice = received.find((r) => r.url === "https://app.example.test/voice");
  expect(voice?.params).toMatchObject({ CallSid: call.sid, From: "+14155550123", CallStatus: "ringing" });
  const done = received.find((r) => r.url === "https://app.example.test/recording");
  expect(done?.params).toMatchObject({ RecordingSid: recording!.sid, RecordingStatus: "completed" });
  expect(received.every(signed)).toBe(true);

  // The recording's audio, as your app would download it from RecordingUrl.
  const audio = await fetch(`${done!.params.RecordingUrl}.wav`, {
    headers: { Authorization: `Basic ${btoa(`${accountSid}:${authToken}`)}` },
  });
  expect(audio.headers.get("content-type")).toBe("audio/x-wav");
  expect(Number(recording!.duration)).toBeGreaterThan(0);
});
