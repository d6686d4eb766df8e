// voice.test.js: the README's test in CommonJS, run by Jest.
const { setupServer } = require("msw/node");
const twilio = require("twilio");
const { createSandbox, failOnUnhandled, validateSignature } = require("voice-sandbox");

const sandbox = createSandbox();
const server = setupServer(...sandbox.handlers);

const accountSid = "AC11111111111111111111111111111111";
const authToken = "acme_auth_token_1111111111111111";
const client = twilio(accountSid, authToken);
client.api.baseUrl = sandbox.baseUrl;

// The app's webhooks, answered in-process.
const received = [];
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

beforeAll(() => server.listen(failOnUnhandled));
afterAll(() => server.close());
beforeEach(() => {
  sandbox.reset();
  received.length = 0;
});

const signed = (request) =>
  validateSignature(authToken, request.headers["x-twilio-signature"] ?? "", request.url, request.params);

test("a message is sent and delivered, with signed status callbacks", async () => {
  const message = await client.messages.create({
    from: "+14155550100",
    to: "+15558675310",
    body: "Your code is 1234",
    statusCallback: "https://app.example.test/sms-status",
  });
  expect(message.status).toBe("queued");

  await sandbox.clock.runUntilIdle();
  await sandbox.settle();

  expect(received.map((r) => r.params.MessageStatus)).toEqual(["sending", "sent", "delivered"]);
  expect(received.every(signed)).toBe(true);
  expect((await client.messages(message.sid).fetch()).status).toBe("delivered");
});

test("an inbound call leaves a voicemail", async () => {
  const [number] = await client.incomingPhoneNumbers.list({ phoneNumber: "+14155550100" });
  await client.incomingPhoneNumbers(number.sid).update({ voiceUrl: "https://app.example.test/voice" });

  const call = sandbox.calls.ring({ from: "+14155550123", to: "+14155550100" });
  await sandbox.clock.runUntilIdle();
  await sandbox.settle();

  expect((await client.calls(call.sid).fetch()).status).toBe("completed");
  const recordings = await client.recordings.list({ callSid: call.sid });
  expect(recordings).toHaveLength(1);
  const done = received.find((r) => r.url === "https://app.example.test/recording");
  expect(done.params).toMatchObject({ RecordingSid: recordings[0].sid, RecordingStatus: "completed" });
  expect(received.every(signed)).toBe(true);
});
