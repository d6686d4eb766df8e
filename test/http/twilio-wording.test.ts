// Twilio's own wording for the errors users meet most: what the twilio client's RestException carries.
import type { RestException } from "twilio";
import { describe, expect, it } from "vitest";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";

const account = `/2010-04-01/Accounts/${fixtures.acme.sid}`;
const customer = "+15558675310";

describe.each(doorNames)("Twilio's error wording via %s", (door) => {
  const ctx = useDoor(door);
  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => {
        throw new Error("expected a refusal");
      },
      (error: RestException) => ({ status: error.status, code: error.code, message: error.message }),
    );
  const post = async (path: string, form: Record<string, string>) => {
    const { json } = await ctx.call("POST", `${account}${path}`, { auth: acmeAuth, form });
    return { status: json.status, code: json.code, message: json.message };
  };

  it("names the missing parameter of a message as Twilio does", async () => {
    // The twilio client refuses to send a create without To, so that one goes raw.
    expect(await post("/Messages.json", { From: fixtures.acme.mainNumber, Body: "hi" })).toEqual({
      status: 400,
      code: 21604,
      message: "A 'To' phone number is required.",
    });
    const messages = ctx.twilioClient().messages;
    expect(await refusal(messages.create({ to: customer, body: "hi" }))).toEqual({
      status: 400,
      code: 21603,
      message: "A 'From' phone number is required.",
    });
    expect(await refusal(messages.create({ to: customer, from: fixtures.acme.mainNumber }))).toEqual({
      status: 400,
      code: 21602,
      message: "Message body is required.",
    });
  });

  it("names the missing parameter of a call as Twilio does", async () => {
    expect(
      await post("/Calls.json", { From: fixtures.acme.mainNumber, Url: "https://a.example.com" }),
    ).toEqual({
      status: 400,
      code: 21201,
      message: "No 'To' number is specified",
    });
    expect(await post("/Calls.json", { To: customer, Url: "https://a.example.com" })).toEqual({
      status: 400,
      code: 21213,
      message: "No 'From' number is specified",
    });
    const calls = ctx.twilioClient().calls;
    expect(await refusal(calls.create({ to: customer, from: fixtures.acme.mainNumber }))).toEqual({
      status: 400,
      code: 21205,
      message: "Url parameter is required.",
    });
  });

  it("answers wrong credentials with Authenticate, the reason in detail", async () => {
    const client = ctx.twilioClient(fixtures.acme.sid, "not-the-token");
    expect(await refusal(client.calls.list())).toEqual({ status: 401, code: 20003, message: "Authenticate" });
    const raw = await ctx.call("GET", `${account}/Calls.json`, {
      auth: { basic: [fixtures.acme.sid, "not-the-token"] },
    });
    expect(raw.json).toEqual({
      code: 20003,
      message: "Authenticate",
      more_info: "https://www.twilio.com/docs/errors/20003",
      status: 401,
      detail: "Your AccountSid or AuthToken was incorrect.",
    });
  });
});
