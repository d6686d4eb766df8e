// Stored text is data: every URL a request can store keeps to its own schemes (http(s), or ws(s) for a stream,
// sip(s) for a trunk), and any other (javascript:, data:, file:, vbscript:) is refused in the surface's own
// error format, nothing stored. The list of fields is read off the OpenAPI document, so a new one is covered.
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../src/http/openapi-document.js";
import { routes } from "../../src/http/routes.js";
import { doorNames, useDoor } from "../support/doors.js";
import { acmeAuth, carrierAuth, fixtures } from "../support/fixtures.js";

const hostile = [
  "javascript:alert(document.domain)",
  "JavaScript:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "file:///etc/passwd",
  "vbscript:msgbox(1)",
];

const hex = (prefix: string) => `${prefix}${"0".repeat(31)}1`;
const pathValues: Record<string, string> = {
  AccountSid: fixtures.acme.sid,
  Sid: "",
  CallSid: hex("CA"),
  ConferenceSid: hex("CF"),
  QueueSid: hex("QU"),
  id: hex("TK"),
};

interface Case {
  /** Other members the request needs, so the URL field is the one at fault. */
  base: Record<string, string>;
  /** The Twilio code of each URL field of this operation (account API). */
  codes: Record<string, number>;
  /** The path's `{Sid}`, when it has one. */
  sid?: string;
  /** Numbers are provisioned by the carrier. */
  asCarrier?: boolean;
}

const numberFields = [
  "VoiceUrl",
  "VoiceFallbackUrl",
  "StatusCallback",
  "StatusCallbackUrl",
  "SmsUrl",
  "SmsFallbackUrl",
];
const numberCase: Case = {
  base: { PhoneNumber: "+14155550199" },
  asCarrier: true,
  codes: Object.fromEntries(numberFields.map((f) => [f, 21402])),
};
const applicationFields = [
  "VoiceUrl",
  "VoiceFallbackUrl",
  "StatusCallback",
  "SmsUrl",
  "SmsFallbackUrl",
  "SmsStatusCallback",
  "MessageStatusCallback",
];
const applicationCase = (sid?: string): Case => ({
  base: { FriendlyName: "app" },
  codes: Object.fromEntries(applicationFields.map((f) => [f, 21402])),
  ...(sid ? { sid } : {}),
});
const place = { To: "+15558675310", From: fixtures.acme.mainNumber, Url: "https://app.example.com/voice" };

/** Every account API operation that stores a URL, by the OpenAPI document's method and path. */
const accountCases: Record<string, Case> = {
  "POST /2010-04-01/Accounts/{AccountSid}/Applications": applicationCase(),
  "POST /2010-04-01/Accounts/{AccountSid}/Applications/{Sid}": applicationCase(hex("AP")),
  "POST /2010-04-01/Accounts/{AccountSid}/OutgoingCallerIds": {
    base: { PhoneNumber: "+15558675310" },
    codes: { StatusCallback: 21609 },
  },
  "POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers": numberCase,
  "POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/Local": numberCase,
  "POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/TollFree": numberCase,
  "POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/Mobile": numberCase,
  "POST /2010-04-01/Accounts/{AccountSid}/IncomingPhoneNumbers/{Sid}": { ...numberCase, sid: hex("PN") },
  "POST /2010-04-01/Accounts/{AccountSid}/Calls": {
    base: place,
    codes: {
      Url: 21205,
      FallbackUrl: 21205,
      StatusCallback: 21609,
      RecordingStatusCallback: 21609,
      AsyncAmdStatusCallback: 21609,
    },
  },
  "POST /2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}": {
    base: {},
    codes: { Url: 21205, FallbackUrl: 21205, StatusCallback: 21609 },
  },
  "POST /2010-04-01/Accounts/{AccountSid}/Messages": {
    base: { To: "+15558675310", From: fixtures.acme.mainNumber, Body: "hi" },
    codes: { MediaUrl: 21620, StatusCallback: 21609 },
  },
  "POST /2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}/Recordings": {
    base: {},
    codes: { RecordingStatusCallback: 21609 },
  },
  "POST /2010-04-01/Accounts/{AccountSid}/Conferences/{ConferenceSid}": {
    base: {},
    codes: { AnnounceUrl: 21205 },
  },
  "POST /2010-04-01/Accounts/{AccountSid}/Conferences/{ConferenceSid}/Participants": {
    base: { From: fixtures.acme.mainNumber, To: "+15558675310" },
    codes: {
      StatusCallback: 21609,
      WaitUrl: 21205,
      ConferenceStatusCallback: 21609,
      ConferenceRecordingStatusCallback: 21609,
      AmdStatusCallback: 21609,
    },
  },
  "POST /2010-04-01/Accounts/{AccountSid}/Conferences/{ConferenceSid}/Participants/{CallSid}": {
    base: {},
    codes: { HoldUrl: 21205, AnnounceUrl: 21205 },
  },
  "POST /2010-04-01/Accounts/{AccountSid}/Queues/{QueueSid}/Members/{CallSid}": {
    base: {},
    codes: { Url: 21205 },
  },
  // A stream's Url keeps to its own schemes, ws:// and wss://.
  "POST /2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}/Streams": {
    base: { Url: "wss://agent.example.com/stream" },
    codes: { Url: 21205, StatusCallback: 21609 },
  },
};

/** Carrier and admin operations that store a URL, and the field's JSON pointer. */
const carrierCases: Record<string, string> = {
  "POST /carrier/v1/sip_trunks": "/data/attributes/termination_uris/0",
  "PATCH /carrier/v1/sip_trunks/{id}": "/data/attributes/termination_uris/0",
};
const adminCases: Record<string, string> = { "POST /__sandbox/messages/inbound": "media_urls" };

/** `METHOD path field` for each request member named like a URL in the OpenAPI document. */
function storedUrlFields(): string[] {
  const document = buildOpenApiDocument(routes);
  type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };
  const resolve = (schema: Schema | undefined): Schema => {
    let current = schema ?? {};
    for (let i = 0; i < 10 && current.$ref; i++)
      current = (document.components.schemas[current.$ref.split("/").pop()!] ?? {}) as Schema;
    return current;
  };
  const found = new Set<string>();
  const walk = (schema: Schema | undefined, where: string, depth: number) => {
    const s = resolve(schema);
    if (depth > 6) return;
    for (const [key, value] of Object.entries(s.properties ?? {})) {
      if (/(Url|Callback|_urls?|_uris?)$/.test(key)) found.add(`${where} ${key}`);
      walk(value, where, depth + 1);
    }
    if (s.items) walk(s.items, where, depth + 1);
    for (const alternative of s.anyOf ?? []) walk(alternative, where, depth + 1);
  };
  for (const [path, operations] of Object.entries(document.paths))
    for (const [method, operation] of Object.entries(operations)) {
      const content = (operation as { requestBody?: { content?: Record<string, { schema?: Schema }> } })
        .requestBody?.content;
      for (const media of Object.values(content ?? {}))
        walk(media.schema, `${method.toUpperCase()} ${path}`, 0);
    }
  return [...found].sort();
}

const fill = (path: string, sid = "") =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => (name === "Sid" ? sid : (pathValues[name] ?? name)));

describe("the URL fields a request can store", () => {
  it("are all in this test's lists (a new one must be added, with its schemes)", () => {
    const listed = [
      ...Object.entries(accountCases).flatMap(([op, c]) => Object.keys(c.codes).map((f) => `${op} ${f}`)),
      ...Object.keys(carrierCases).map((op) => `${op} termination_uris`),
      ...Object.keys(adminCases).map((op) => `${op} media_urls`),
    ].sort();
    expect(storedUrlFields()).toEqual([...new Set(listed)].sort());
  });
});

describe.each(doorNames)("URL schemes via %s", (door) => {
  const ctx = useDoor(door);

  it("the account API refuses every other scheme on every URL field, with that field's Twilio code", async () => {
    const before = JSON.stringify(ctx.sandbox.snapshot());
    const wrong: string[] = [];
    for (const [operation, { base, codes, sid, asCarrier }] of Object.entries(accountCases)) {
      const [method, template] = operation.split(" ") as [string, string];
      for (const [field, code] of Object.entries(codes)) {
        for (const value of hostile) {
          const res = await ctx.call(method, `${fill(template, sid)}.json`, {
            auth: asCarrier ? carrierAuth : acmeAuth,
            form: { ...base, [field]: field === "MediaUrl" ? [value] : value },
          });
          const ok =
            res.status === 400 &&
            res.json?.code === code &&
            res.json?.more_info === `https://www.twilio.com/docs/errors/${code}` &&
            String(res.json?.message).includes(field);
          if (!ok) wrong.push(`${operation} ${field}: ${res.status} ${res.text}`);
        }
      }
    }
    expect([...new Set(wrong)]).toEqual([]);
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
  });

  it("the carrier API keeps a trunk's URIs to sip: and sips:, as JSON:API errors at the member", async () => {
    const before = JSON.stringify(ctx.sandbox.snapshot());
    for (const [operation, pointer] of Object.entries(carrierCases)) {
      const [method, template] = operation.split(" ") as [string, string];
      for (const value of [...hostile, "https://pbx.example.com"]) {
        const res = await ctx.call(method, fill(template), {
          auth: carrierAuth,
          json: {
            data: {
              type: "sip_trunk",
              ...(method === "PATCH" ? { id: pathValues.id } : {}),
              attributes: { name: "trunk", termination_uris: [value] },
            },
          },
        });
        expect(res.status, `${operation} ${value}`).toBe(422);
        expect(res.json.errors[0].source.pointer, value).toBe(pointer);
      }
    }
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
  });

  it("the admin inbound message takes http(s) media only, as an admin error", async () => {
    const before = JSON.stringify(ctx.sandbox.snapshot());
    for (const value of hostile) {
      const res = await ctx.call("POST", "/__sandbox/messages/inbound", {
        json: { from: "+15558675310", to: fixtures.acme.mainNumber, body: "hi", media_urls: [value] },
        headers: { "content-type": "application/json" },
      });
      expect(res.status, value).toBe(400);
      expect(JSON.stringify(res.json.error), value).toContain("media_urls");
      expect(JSON.stringify(res.json.error), value).toContain("must be an absolute http or https URL");
    }
    expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);
    const fine = await ctx.call("POST", "/__sandbox/messages/inbound", {
      json: {
        from: "+15558675310",
        to: fixtures.acme.mainNumber,
        body: "hi",
        media_urls: ["https://cdn.example.com/cat.jpg"],
      },
      headers: { "content-type": "application/json" },
    });
    expect(fine.status).toBe(201);
    expect(fine.json.num_media).toBe("1");
  });
});
