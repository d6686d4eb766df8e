// Applications at work: a call placed with ApplicationSid and calls and messages to numbers that name one run its handlers.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { fixtures } from "../support/fixtures.js";
import { useEngine } from "./harness.js";

const { VoiceResponse } = twilio.twiml;
const json = { "content-type": "application/json" };

describe("applications", () => {
  const h = useEngine();
  const client = () => h.door.twilioClient();
  const say = (text: string) => {
    const response = new VoiceResponse();
    response.say(text);
    return response.toString();
  };
  const mainNumber = async () =>
    (await client().incomingPhoneNumbers.list({ phoneNumber: fixtures.acme.mainNumber }))[0]!;
  const createApp = () =>
    client().applications.create({
      friendlyName: "IVR",
      voiceUrl: h.app.url("/app-voice"),
      voiceMethod: "GET",
      statusCallback: h.app.url("/app-status"),
      smsUrl: h.app.url("/app-sms"),
    });

  it("a call placed with ApplicationSid fetches the application's VoiceUrl and reports to its StatusCallback", async () => {
    const app = await createApp();
    h.app.on("/app-voice", say("Hello from the app"));
    const call = await client().calls.create({
      to: "+15558675310",
      from: fixtures.acme.mainNumber,
      applicationSid: app.sid,
      // Twilio ignores Url and StatusCallback when ApplicationSid is given.
      url: h.app.url("/ignored"),
      statusCallback: h.app.url("/ignored-status"),
    });
    await h.run();
    const fetched = h.app.received("/app-voice");
    expect(fetched.map((r) => [r.method, r.params.CallSid])).toEqual([["GET", call.sid]]);
    expect(h.app.received("/ignored")).toEqual([]);
    expect(h.app.received("/app-status").map((r) => r.params.CallStatus)).toEqual(["completed"]);
    expect(h.app.received("/ignored-status")).toEqual([]);
  });

  it("refuses an ApplicationSid of no application, another account's, or one without a VoiceUrl (21218)", async () => {
    const place = (applicationSid: string) =>
      client().calls.create({ to: "+15558675310", from: fixtures.acme.mainNumber, applicationSid });
    await expect(place(`AP${"0".repeat(32)}`)).rejects.toMatchObject({ status: 400, code: 21218 });
    const bare = await client().applications.create({ friendlyName: "no voice" });
    await expect(place(bare.sid)).rejects.toMatchObject({ status: 400, code: 21218 });
    const globex = h.door.twilioClient(fixtures.globex.sid, fixtures.globex.authToken);
    const theirs = await globex.applications.create({ voiceUrl: h.app.url("/theirs") });
    await expect(place(theirs.sid)).rejects.toMatchObject({ status: 400, code: 21218 });
    await expect(place("nope")).rejects.toMatchObject({ status: 400, code: 21218 });
  });

  it("a number with a VoiceApplicationSid and SmsApplicationSid runs the application's handlers, until it is deleted", async () => {
    const app = await createApp();
    const number = await mainNumber();
    const updated = await client()
      .incomingPhoneNumbers(number.sid)
      .update({
        voiceUrl: h.app.url("/number-voice"),
        voiceApplicationSid: app.sid,
        smsApplicationSid: app.sid,
      });
    expect(updated).toMatchObject({ voiceApplicationSid: app.sid, smsApplicationSid: app.sid });
    h.app.on("/app-voice", say("Application answers"));
    h.app.on("/number-voice", say("Number answers"));
    const ring = () =>
      h.door.call("POST", "/__sandbox/calls/inbound", {
        json: { from: "+14155559876", to: fixtures.acme.mainNumber },
        headers: json,
      });
    await ring();
    await h.door.call("POST", "/__sandbox/messages/inbound", {
      json: { from: "+14155559876", to: fixtures.acme.mainNumber, body: "Hi" },
      headers: json,
    });
    await h.run();
    expect(h.app.received("/app-voice")).toHaveLength(1);
    expect(h.app.received("/number-voice")).toHaveLength(0);
    expect(h.app.received("/app-sms").map((r) => r.params.Body)).toEqual(["Hi"]);

    // Deleting the application leaves the number on its own handlers.
    await client().applications(app.sid).remove();
    expect((await client().incomingPhoneNumbers(number.sid).fetch()).voiceApplicationSid).toBeNull();
    await ring();
    await h.run();
    expect(h.app.received("/number-voice")).toHaveLength(1);
  });

  it("refuses a number's application of another account, and clears one with an empty value", async () => {
    const number = await mainNumber();
    const globex = h.door.twilioClient(fixtures.globex.sid, fixtures.globex.authToken);
    const theirs = await globex.applications.create({ voiceUrl: h.app.url("/theirs") });
    await expect(
      client().incomingPhoneNumbers(number.sid).update({ voiceApplicationSid: theirs.sid }),
    ).rejects.toMatchObject({ status: 400, code: 21218 });
    const app = await createApp();
    await client().incomingPhoneNumbers(number.sid).update({ smsApplicationSid: app.sid });
    const cleared = await client().incomingPhoneNumbers(number.sid).update({ smsApplicationSid: "" });
    expect(cleared.smsApplicationSid).toBeNull();
  });
});
