// The scope matrix: every account API route, allowed with a key holding only its scope and refused (403) with all the others.
import { describe, expect, it } from "vitest";
import { type AccountScope, accountScopes } from "../../src/domain/api-key.js";
import { createAgentExtension } from "../../src/engine/accounts/agent-extensions.js";
import type { Sandbox } from "../../src/index.js";
import {
  insertCall,
  insertConference,
  insertParticipant,
  insertQueue,
  insertQueueMember,
  insertRecording,
  insertTranscription,
} from "../support/account-records.js";
import { doorNames, useDoor } from "../support/doors.js";
import { fixtures } from "../support/fixtures.js";

const base = `/2010-04-01/Accounts/${fixtures.acme.sid}`;

/** Records every route below can act on. */
function seed(sandbox: Sandbox) {
  const call = insertCall(sandbox);
  const recording = insertRecording(sandbox, call);
  const transcription = insertTranscription(sandbox, recording);
  const now = sandbox.clock.now();
  const message = sandbox.store.messages.insert({
    sid: sandbox.engine.ids.mint("SM"),
    account_sid: fixtures.acme.sid,
    messaging_service_sid: null,
    direction: "outbound-api",
    from: fixtures.acme.mainNumber,
    to: "+15558675310",
    body: "hi",
    media_urls: [],
    media: [],
    num_segments: 1,
    num_media: 0,
    encoding: "GSM-7",
    status: "delivered",
    error_code: null,
    error_message: null,
    price: "-0.00790",
    price_unit: "USD",
    status_callback: null,
    status_callback_method: "POST",
    send_at: null,
    content_sid: null,
    date_sent: now,
    created_at: now,
    updated_at: now,
  });
  const agent = createAgentExtension(sandbox.engine, fixtures.acme.sid, { agent_name: "Ada" });
  const number = sandbox.store.phoneNumbers.findOne("number", fixtures.acme.mainNumber)!;
  const { conference, queue, emptyQueue } = seedRooms(sandbox, call.sid);
  return { call, recording, transcription, message, agent, number, conference, queue, emptyQueue };
}
type Seeded = ReturnType<typeof seed>;

/** A conference with the call in it, a queue with the call waiting, and an empty queue. */
function seedRooms(sandbox: Sandbox, callSid: string) {
  const conference = insertConference(sandbox);
  insertParticipant(sandbox, conference, callSid);
  const busy = insertQueue(sandbox, "support");
  insertQueueMember(sandbox, busy, callSid);
  return { conference, queue: busy, emptyQueue: insertQueue(sandbox, "empty") };
}

interface Cell {
  method: string;
  path: (s: Seeded) => string;
  scope: AccountScope;
  form?: Record<string, string>;
  /** Recording media: public unless the account turns media auth on, which these rows do first. */
  mediaAuth?: true;
}

const customer = "+15558675310";
/** The matrix docs/account-api.md documents; each row is one route and the scope that guards it. */
const scopeMatrix: Cell[] = [
  { method: "GET", path: () => `${base}/Calls.json`, scope: "phone_calls_read" },
  {
    method: "POST",
    path: () => `${base}/Calls.json`,
    scope: "phone_calls_write",
    form: { To: customer, From: fixtures.acme.mainNumber, Url: "https://app.example.com/voice" },
  },
  { method: "GET", path: (s) => `${base}/Calls/${s.call.sid}.json`, scope: "phone_calls_read" },
  {
    method: "POST",
    path: (s) => `${base}/Calls/${s.call.sid}.json`,
    scope: "phone_calls_write",
    form: { Status: "canceled" },
  },
  { method: "DELETE", path: (s) => `${base}/Calls/${s.call.sid}.json`, scope: "phone_calls_write" },
  { method: "GET", path: () => `${base}/Notifications.json`, scope: "phone_calls_read" },
  { method: "GET", path: (s) => `${base}/Calls/${s.call.sid}/Notifications.json`, scope: "phone_calls_read" },
  { method: "GET", path: () => `${base}/Messages.json`, scope: "messages_read" },
  {
    method: "POST",
    path: () => `${base}/Messages.json`,
    scope: "messages_write",
    form: { To: customer, From: fixtures.acme.mainNumber, Body: "hi" },
  },
  { method: "GET", path: (s) => `${base}/Messages/${s.message.sid}.json`, scope: "messages_read" },
  {
    method: "POST",
    path: (s) => `${base}/Messages/${s.message.sid}.json`,
    scope: "messages_write",
    form: { Body: "" },
  },
  { method: "DELETE", path: (s) => `${base}/Messages/${s.message.sid}.json`, scope: "messages_write" },
  { method: "GET", path: () => `${base}/Recordings.json`, scope: "recordings_read" },
  { method: "GET", path: (s) => `${base}/Calls/${s.call.sid}/Recordings.json`, scope: "recordings_read" },
  { method: "GET", path: (s) => `${base}/Recordings/${s.recording.sid}.json`, scope: "recordings_read" },
  {
    method: "GET",
    path: (s) => `${base}/Recordings/${s.recording.sid}`,
    scope: "recordings_read",
    mediaAuth: true,
  },
  {
    method: "GET",
    path: (s) => `${base}/Recordings/${s.recording.sid}.wav`,
    scope: "recordings_read",
    mediaAuth: true,
  },
  {
    method: "GET",
    path: (s) => `${base}/Recordings/${s.recording.sid}.mp3`,
    scope: "recordings_read",
    mediaAuth: true,
  },
  { method: "DELETE", path: (s) => `${base}/Recordings/${s.recording.sid}.json`, scope: "recordings_write" },
  { method: "GET", path: () => `${base}/Transcriptions.json`, scope: "recordings_read" },
  {
    method: "GET",
    path: (s) => `${base}/Transcriptions/${s.transcription.sid}.json`,
    scope: "recordings_read",
  },
  {
    method: "DELETE",
    path: (s) => `${base}/Transcriptions/${s.transcription.sid}.json`,
    scope: "recordings_write",
  },
  {
    method: "GET",
    path: (s) => `${base}/Recordings/${s.recording.sid}/Transcriptions.json`,
    scope: "recordings_read",
  },
  { method: "GET", path: () => `${base}/IncomingPhoneNumbers.json`, scope: "incoming_phone_numbers_read" },
  {
    method: "GET",
    path: (s) => `${base}/IncomingPhoneNumbers/${s.number.sid}.json`,
    scope: "incoming_phone_numbers_read",
  },
  {
    method: "POST",
    path: (s) => `${base}/IncomingPhoneNumbers/${s.number.sid}.json`,
    scope: "incoming_phone_numbers_write",
    form: { FriendlyName: "Renamed" },
  },
  {
    method: "DELETE",
    path: (s) => `${base}/IncomingPhoneNumbers/${s.number.sid}.json`,
    scope: "incoming_phone_numbers_write",
  },
  {
    method: "GET",
    path: (s) => `${base}/IncomingPhoneNumbers/${s.number.sid}/AssignedAddOns.json`,
    scope: "incoming_phone_numbers_read",
  },
  { method: "GET", path: () => `${base}/AvailablePhoneNumbers.json`, scope: "incoming_phone_numbers_read" },
  {
    method: "GET",
    path: () => `${base}/AvailablePhoneNumbers/US.json`,
    scope: "incoming_phone_numbers_read",
  },
  {
    method: "GET",
    path: () => `${base}/AvailablePhoneNumbers/US/Local.json`,
    scope: "incoming_phone_numbers_read",
  },
  {
    method: "GET",
    path: () => `${base}/AvailablePhoneNumbers/US/TollFree.json`,
    scope: "incoming_phone_numbers_read",
  },
  {
    method: "GET",
    path: () => `${base}/AvailablePhoneNumbers/GB/Mobile.json`,
    scope: "incoming_phone_numbers_read",
  },
  { method: "GET", path: () => `${base}/AgentExtensions.json`, scope: "agent_extensions_read" },
  {
    method: "GET",
    path: (s) => `${base}/AgentExtensions/${s.agent.sid}.json`,
    scope: "agent_extensions_read",
  },
  {
    method: "POST",
    path: (s) => `${base}/AgentExtensions/${s.agent.sid}.json`,
    scope: "agent_extensions_write",
    form: { Status: "busy" },
  },
  { method: "GET", path: () => `${base}/Conferences.json`, scope: "phone_calls_read" },
  { method: "GET", path: (s) => `${base}/Conferences/${s.conference.sid}.json`, scope: "phone_calls_read" },
  {
    method: "POST",
    path: (s) => `${base}/Conferences/${s.conference.sid}.json`,
    scope: "phone_calls_write",
    form: { Status: "completed" },
  },
  {
    method: "GET",
    path: (s) => `${base}/Conferences/${s.conference.sid}/Participants.json`,
    scope: "phone_calls_read",
  },
  {
    method: "GET",
    path: (s) => `${base}/Conferences/${s.conference.sid}/Participants/${s.call.sid}.json`,
    scope: "phone_calls_read",
  },
  {
    method: "POST",
    path: (s) => `${base}/Conferences/${s.conference.sid}/Participants/${s.call.sid}.json`,
    scope: "phone_calls_write",
    form: { Muted: "true" },
  },
  {
    method: "DELETE",
    path: (s) => `${base}/Conferences/${s.conference.sid}/Participants/${s.call.sid}.json`,
    scope: "phone_calls_write",
  },
  {
    method: "GET",
    path: (s) => `${base}/Conferences/${s.conference.sid}/Recordings.json`,
    scope: "phone_calls_read",
  },
  { method: "GET", path: () => `${base}/Queues.json`, scope: "phone_calls_read" },
  {
    method: "POST",
    path: () => `${base}/Queues.json`,
    scope: "phone_calls_write",
    form: { FriendlyName: "sales" },
  },
  { method: "GET", path: (s) => `${base}/Queues/${s.queue.sid}.json`, scope: "phone_calls_read" },
  {
    method: "POST",
    path: (s) => `${base}/Queues/${s.queue.sid}.json`,
    scope: "phone_calls_write",
    form: { MaxSize: "5" },
  },
  { method: "DELETE", path: (s) => `${base}/Queues/${s.emptyQueue.sid}.json`, scope: "phone_calls_write" },
  { method: "GET", path: (s) => `${base}/Queues/${s.queue.sid}/Members.json`, scope: "phone_calls_read" },
  {
    method: "GET",
    path: (s) => `${base}/Queues/${s.queue.sid}/Members/${s.call.sid}.json`,
    scope: "phone_calls_read",
  },
  {
    method: "POST",
    path: (s) => `${base}/Queues/${s.queue.sid}/Members/Front.json`,
    scope: "phone_calls_write",
    form: { Url: "https://app.example.com/dequeued" },
  },
];

/** The route as docs/account-api.md writes it: `/Calls/{call}.json`. */
const nameOf = (cell: Cell) =>
  cell.path
    .toString()
    .replace(/^[^`]*`\$\{base\}|`[^`]*$/g, "")
    .replace(/\$\{s\.(\w+)\.sid\}/g, "{$1}");

describe.each(doorNames)("account API scope matrix via %s", (door) => {
  const ctx = useDoor(door);
  const mint = async (scopes: AccountScope[]): Promise<string> => {
    const response = await ctx.call("POST", `/__sandbox/accounts/${fixtures.acme.sid}/api_keys`, {
      json: { scopes },
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(201);
    return response.json.key;
  };

  it.each(scopeMatrix.map((cell) => [`${cell.method} ${nameOf(cell)} needs ${cell.scope}`, cell] as const))(
    "%s",
    async (_name, cell) => {
      const seeded = seed(ctx.sandbox);
      const path = cell.path(seeded);
      const others = accountScopes.filter((s) => s !== cell.scope);
      const refusedKey = await mint(others);
      const allowedKey = await mint([cell.scope]);
      const options = (key: string) => ({ auth: { bearer: key }, ...(cell.form ? { form: cell.form } : {}) });
      if (cell.mediaAuth) {
        const account = ctx.sandbox.store.accounts.get(fixtures.acme.sid)!;
        ctx.sandbox.store.accounts.replace({ ...account, media_auth: true });
      }

      const before = JSON.stringify(ctx.sandbox.snapshot());
      const refused = await ctx.call(cell.method, path, options(refusedKey));
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe(20003);
      expect(refused.json.message).toContain(cell.scope);
      expect(JSON.stringify(ctx.sandbox.snapshot())).toBe(before);

      const allowed = await ctx.call(cell.method, path, options(allowedKey));
      expect(allowed.status, allowed.text).toBeGreaterThanOrEqual(200);
      expect(allowed.status, allowed.text).toBeLessThan(300);
    },
  );
});
