// Every account API response against our zod schemas (no missing or extra keys), and our schemas against Twilio's.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgentExtension } from "../../src/engine/accounts/agent-extensions.js";
import { agentExtensionResource } from "../../src/http/account-api/agent-extensions.js";
import {
  availableCountryResource,
  availablePhoneNumberResource,
} from "../../src/http/account-api/available-phone-numbers.js";
import { callResource } from "../../src/http/account-api/calls.js";
import { incomingPhoneNumberResource } from "../../src/http/account-api/incoming-phone-numbers.js";
import { messageResource } from "../../src/http/account-api/messages.js";
import { recordingResource } from "../../src/http/account-api/recordings.js";
import { transcriptionResource } from "../../src/http/account-api/transcriptions.js";
import { insertCall, insertRecording, insertTranscription } from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, fixtures } from "../support/fixtures.js";
import {
  expectTwilioShape,
  type ObjectSchema,
  objectSchema,
  type TwilioProperty,
} from "../support/twilio-shape.js";
import twilioShapes from "../support/twilio-shapes.json" with { type: "json" };

const twilio = twilioShapes.resources as Record<
  string,
  { schema: string; properties: Record<string, TwilioProperty> }
>;

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;

/** Our resource schemas and the Twilio schema each one must cover. */
const pairs: [string, ObjectSchema, string][] = [
  ["call", callResource, "call"],
  ["message", messageResource, "message"],
  ["recording", recordingResource, "recording"],
  ["transcription", transcriptionResource, "transcription"],
  ["incoming phone number", incomingPhoneNumberResource, "incoming_phone_number"],
  ["available country", availableCountryResource, "available_phone_number_country"],
  ["available local number", availablePhoneNumberResource, "available_phone_number_local"],
  ["available toll-free number", availablePhoneNumberResource, "available_phone_number_toll_free"],
  ["available mobile number", availablePhoneNumberResource, "available_phone_number_mobile"],
];

describe("account API schemas agree with Twilio's OpenAPI", () => {
  it.each(pairs)("the %s schema has every property of Twilio's", (_name, schema, twilioName) => {
    const ours = Object.keys(objectSchema(schema).shape);
    const theirs = Object.keys(twilio[twilioName]!.properties);
    expect(theirs.filter((key) => !ours.includes(key))).toEqual([]);
  });
});

function checkResource(body: unknown, schema: ObjectSchema, twilioName: string | null): void {
  expectTwilioShape(
    body,
    schema,
    twilioName ? { name: twilioName, properties: twilio[twilioName]!.properties } : undefined,
  );
}

const envelopeKeys = [
  "end",
  "first_page_uri",
  "next_page_uri",
  "page",
  "page_size",
  "previous_page_uri",
  "start",
  "uri",
];

function checkList(
  body: Record<string, unknown>,
  key: string,
  schema: ObjectSchema,
  twilioName: string | null,
) {
  expect(Object.keys(body).sort()).toEqual([...envelopeKeys, key].sort());
  const items = body[key] as unknown[];
  expect(items.length).toBeGreaterThan(0);
  for (const item of items) checkResource(item, schema, twilioName);
}

describe.each(doorNames)("account API response shapes via %s", (door) => {
  const ctx = useDoor(door);
  const get = async (path: string) => {
    const response = await ctx.call("GET", path, { auth: acmeAuth });
    expect(response.status, response.text).toBe(200);
    return response.json;
  };

  it("calls, messages, recordings and transcriptions, fetched and listed, queued and finished", async () => {
    const queued = await ctx.call("POST", `${base}/Calls.json`, {
      auth: acmeAuth,
      form: { To: "+15558675310", From: fixtures.acme.mainNumber, Url: "https://app.example.com/voice" },
    });
    expect(queued.status).toBe(201);
    checkResource(queued.json, callResource, "call");
    const finished = insertCall(ctx.sandbox);
    checkResource(await get(`${base}/Calls/${finished.sid}.json`), callResource, "call");
    checkList(await get(`${base}/Calls.json`), "calls", callResource, "call");

    const sent = await ctx.call("POST", `${base}/Messages.json`, {
      auth: acmeAuth,
      form: { To: "+15558675310", From: fixtures.acme.mainNumber, Body: "hi" },
    });
    expect(sent.status).toBe(201);
    checkResource(sent.json, messageResource, "message");
    checkResource(await get(`${base}/Messages/${sent.json.sid}.json`), messageResource, "message");
    checkList(await get(`${base}/Messages.json`), "messages", messageResource, "message");

    const untranscribed = insertRecording(ctx.sandbox, finished);
    checkResource(await get(`${base}/Recordings/${untranscribed.sid}.json`), recordingResource, "recording");
    const transcribed = insertRecording(ctx.sandbox, finished);
    const transcription = insertTranscription(ctx.sandbox, transcribed);
    checkResource(await get(`${base}/Recordings/${transcribed.sid}.json`), recordingResource, "recording");
    checkList(await get(`${base}/Recordings.json`), "recordings", recordingResource, "recording");
    checkList(
      await get(`${base}/Calls/${finished.sid}/Recordings.json`),
      "recordings",
      recordingResource,
      "recording",
    );
    checkResource(
      await get(`${base}/Transcriptions/${transcription.sid}.json`),
      transcriptionResource,
      "transcription",
    );
    checkList(
      await get(`${base}/Transcriptions.json`),
      "transcriptions",
      transcriptionResource,
      "transcription",
    );
  });

  it("incoming and available phone numbers, and agent extensions", async () => {
    const number = ctx.sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
    checkResource(
      await get(`${base}/IncomingPhoneNumbers/${number.sid}.json`),
      incomingPhoneNumberResource,
      "incoming_phone_number",
    );
    checkList(
      await get(`${base}/IncomingPhoneNumbers.json`),
      "incoming_phone_numbers",
      incomingPhoneNumberResource,
      "incoming_phone_number",
    );
    const countries = await get(`${base}/AvailablePhoneNumbers.json`);
    expect(Object.keys(countries).sort()).toEqual(["countries", "uri"]);
    for (const country of countries.countries) {
      checkResource(country, availableCountryResource, "available_phone_number_country");
    }
    checkResource(
      await get(`${base}/AvailablePhoneNumbers/US.json`),
      availableCountryResource,
      "available_phone_number_country",
    );
    for (const [path, twilioName] of [
      ["US/Local", "available_phone_number_local"],
      ["US/TollFree", "available_phone_number_toll_free"],
      ["GB/Mobile", "available_phone_number_mobile"],
    ] as const) {
      checkList(
        await get(`${base}/AvailablePhoneNumbers/${path}.json`),
        "available_phone_numbers",
        availablePhoneNumberResource,
        twilioName,
      );
    }
    const agent = createAgentExtension(ctx.sandbox.engine, fixtures.acme.sid, { agent_name: "Ada" });
    checkResource(await get(`${base}/AgentExtensions/${agent.sid}.json`), agentExtensionResource, null);
    checkList(await get(`${base}/AgentExtensions.json`), "agent_extensions", agentExtensionResource, null);
  });

  it("errors in Twilio's body: code, message, more_info, status", async () => {
    const missing = await ctx.call("GET", `${base}/Calls/CA00000000000000000000000000000000.json`, {
      auth: acmeAuth,
    });
    expect(missing.status).toBe(404);
    z.strictObject({
      code: z.literal(20404),
      message: z.string(),
      more_info: z.literal("https://www.twilio.com/docs/errors/20404"),
      status: z.literal(404),
    }).parse(missing.json);
  });
});
