// The store's tables: each one's row schema, id, secondary indexes and owner, and the snapshot they make up.
import { z } from "zod";
import { type Account, accountSchema } from "./account.js";
import { type ApiKey, apiKeySchema } from "./api-key.js";
import { type Application, applicationSchema } from "./application.js";
import { type Call, callSchema, isTerminalCallStatus } from "./call.js";
import {
  type AgentExtension,
  agentExtensionSchema,
  type LedgerEntry,
  ledgerEntrySchema,
  type RingGroup,
  ringGroupSchema,
  type SipTrunk,
  sipTrunkSchema,
  type TtsEvent,
  ttsEventSchema,
} from "./carrier-records.js";
import {
  type Conference,
  conferenceSchema,
  type Participant,
  participantId,
  participantSchema,
} from "./conference.js";
import { eventSchema, type SandboxEvent } from "./event.js";
import { serialIn } from "./ids.js";
import { type Message, type MessageStatus, messageSchema } from "./message.js";
import { type OutgoingCallerId, outgoingCallerIdSchema } from "./outgoing-caller-id.js";
import { type PhoneNumber, phoneNumberSchema } from "./phone-number.js";
import { type Queue, type QueueMember, queueMemberSchema, queueSchema } from "./queue.js";
import { type Rate, rateSchema } from "./rate.js";
import { type Recording, recordingSchema } from "./recording.js";
import { compoundKey, type Ownership, type TableDefinition } from "./table.js";
import { type Transcription, transcriptionSchema } from "./transcription.js";
import { type UsageTotal, usageTotalId, usageTotalSchema } from "./usage-total.js";

export const storeSnapshotSchema = z.object({
  accounts: z.array(accountSchema),
  phoneNumbers: z.array(phoneNumberSchema),
  apiKeys: z.array(apiKeySchema),
  rates: z.array(rateSchema),
  events: z.array(eventSchema),
  calls: z.array(callSchema).default([]),
  messages: z.array(messageSchema).default([]),
  recordings: z.array(recordingSchema).default([]),
  transcriptions: z.array(transcriptionSchema).default([]),
  agentExtensions: z.array(agentExtensionSchema).default([]),
  ringGroups: z.array(ringGroupSchema).default([]),
  sipTrunks: z.array(sipTrunkSchema).default([]),
  ttsEvents: z.array(ttsEventSchema).default([]),
  ledger: z.array(ledgerEntrySchema).default([]),
  conferences: z.array(conferenceSchema).default([]),
  participants: z.array(participantSchema).default([]),
  queues: z.array(queueSchema).default([]),
  queueMembers: z.array(queueMemberSchema).default([]),
  applications: z.array(applicationSchema).default([]),
  outgoingCallerIds: z.array(outgoingCallerIdSchema).default([]),
  usageTotals: z.array(usageTotalSchema).default([]),
});
export type StoreSnapshot = z.infer<typeof storeSnapshotSchema>;

/**
 * The key every finished row is filed under in its table's `finished` index: the rows a bound on what the store
 * keeps may drop (engine/context/retention.ts), oldest first. A row still under way is filed under none.
 */
export const finishedKey = "finished";

/**
 * Message statuses after which nothing more happens to the record. Not `sent`: a sent message is still
 * waiting for its handset's receipt (delivered or undelivered, 2 s later).
 */
const settledMessageStatuses = new Set<MessageStatus>([
  "delivered",
  "undelivered",
  "failed",
  "received",
  "read",
  "canceled",
  "partially_delivered",
]);

const finishedIf = (done: boolean) => (done ? finishedKey : null);

export const tableDefinitions = {
  accounts: {
    name: "accounts",
    owner: { kind: "root" },
    id: (a: Account) => a.sid,
    // testSid: Basic auth with Twilio test credentials names the account by its test sid.
    indexes: {
      status: (a: Account) => a.status,
      testSid: (a: Account) => a.test_account_sid,
      parent: (a: Account) => a.parent_account_sid,
    },
  },
  phoneNumbers: {
    name: "phoneNumbers",
    owner: { kind: "released", index: "account", why: "numbers go back to the inventory" },
    id: (n: PhoneNumber) => n.sid,
    indexes: {
      number: (n: PhoneNumber) => n.number,
      account: (n: PhoneNumber) => n.account_sid,
      country: (n: PhoneNumber) => n.country,
      status: (n: PhoneNumber) => n.status,
    },
  },
  apiKeys: {
    name: "apiKeys",
    owner: { kind: "account", index: "account" },
    id: (k: ApiKey) => k.sid,
    indexes: { account: (k: ApiKey) => k.account_sid, key: (k: ApiKey) => k.key },
  },
  rates: {
    name: "rates",
    owner: { kind: "none", why: "the carrier's price list" },
    id: (r: Rate) => r.sid,
    // prefix: a number's rate is found by looking up each of its prefixes, longest first (unique per category).
    indexes: { category: (r: Rate) => r.category, prefix: (r: Rate) => compoundKey(r.category, r.prefix) },
  },
  events: {
    name: "events",
    owner: { kind: "none", why: "the carrier's log of what happened, account.deleted included" },
    id: (e: SandboxEvent) => e.sid,
    // An event's sid ends in its position (recordEvent mints it so), which finds it without a map.
    positionIn: (sid: string) => serialIn(sid, 34),
    indexes: {
      account: (e: SandboxEvent) => e.account_sid,
      type: (e: SandboxEvent) => e.type,
      resource: (e: SandboxEvent) => e.resource_sid,
    },
  },
  calls: {
    name: "calls",
    owner: { kind: "account", index: "account" },
    id: (c: Call) => c.sid,
    indexes: {
      account: (c: Call) => c.account_sid,
      parent: (c: Call) => c.parent_call_sid,
      status: (c: Call) => c.status,
      accountStatus: (c: Call) => compoundKey(c.account_sid, c.status),
      direction: (c: Call) => c.direction,
      from: (c: Call) => c.from,
      to: (c: Call) => c.to,
      finished: (c: Call) => finishedIf(isTerminalCallStatus(c.status)),
    },
  },
  messages: {
    name: "messages",
    owner: { kind: "account", index: "account" },
    id: (m: Message) => m.sid,
    indexes: {
      account: (m: Message) => m.account_sid,
      status: (m: Message) => m.status,
      accountStatus: (m: Message) => compoundKey(m.account_sid, m.status),
      direction: (m: Message) => m.direction,
      from: (m: Message) => m.from,
      to: (m: Message) => m.to,
      finished: (m: Message) => finishedIf(settledMessageStatuses.has(m.status)),
    },
  },
  recordings: {
    name: "recordings",
    owner: { kind: "account", index: "account" },
    id: (r: Recording) => r.sid,
    indexes: {
      account: (r: Recording) => r.account_sid,
      call: (r: Recording) => r.call_sid,
      conference: (r: Recording) => r.conference_sid,
      finished: (r: Recording) =>
        finishedIf(r.status === "completed" || r.status === "absent" || r.status === "deleted"),
    },
  },
  transcriptions: {
    name: "transcriptions",
    owner: { kind: "account", index: "account" },
    id: (t: Transcription) => t.sid,
    indexes: {
      account: (t: Transcription) => t.account_sid,
      recording: (t: Transcription) => t.recording_sid,
      finished: (t: Transcription) => finishedIf(t.status !== "in-progress"),
    },
  },
  agentExtensions: {
    name: "agentExtensions",
    owner: { kind: "account", index: "account" },
    id: (a: AgentExtension) => a.sid,
    indexes: {
      account: (a: AgentExtension) => a.account_sid,
      extension: (a: AgentExtension) => `${a.account_sid}:${a.extension}`,
    },
  },
  ringGroups: {
    name: "ringGroups",
    owner: { kind: "account", index: "account" },
    id: (g: RingGroup) => g.sid,
    indexes: { account: (g: RingGroup) => g.account_sid },
  },
  sipTrunks: {
    name: "sipTrunks",
    owner: { kind: "released", index: "account", why: "trunks go back to the carrier" },
    id: (t: SipTrunk) => t.sid,
    indexes: { account: (t: SipTrunk) => t.account_sid },
  },
  ttsEvents: {
    name: "ttsEvents",
    owner: { kind: "account", index: "account" },
    id: (t: TtsEvent) => t.sid,
    indexes: { account: (t: TtsEvent) => t.account_sid, call: (t: TtsEvent) => t.call_sid },
  },
  ledger: {
    name: "ledger",
    owner: { kind: "account", index: "account" },
    id: (e: LedgerEntry) => e.sid,
    indexes: {
      account: (e: LedgerEntry) => e.account_sid,
      category: (e: LedgerEntry) => compoundKey(e.account_sid, e.category),
      // What a charge was for: a dropped call, message or recording takes its charges with it.
      resource: (e: LedgerEntry) => e.resource_sid,
    },
  },
  conferences: {
    name: "conferences",
    owner: { kind: "account", index: "account" },
    id: (c: Conference) => c.sid,
    indexes: {
      account: (c: Conference) => c.account_sid,
      // Only a conference still running is found by name; a finished one keeps its sid.
      live: (c: Conference) => (c.status === "completed" ? null : `${c.account_sid}:${c.friendly_name}`),
      finished: (c: Conference) => finishedIf(c.status === "completed"),
    },
  },
  participants: {
    name: "participants",
    owner: { kind: "parent", table: "conferences", index: "conference" },
    id: participantId,
    indexes: {
      conference: (p: Participant) => p.conference_sid,
      call: (p: Participant) => p.call_sid,
    },
  },
  queues: {
    name: "queues",
    owner: { kind: "account", index: "account" },
    id: (q: Queue) => q.sid,
    indexes: {
      account: (q: Queue) => q.account_sid,
      name: (q: Queue) => `${q.account_sid}:${q.friendly_name}`,
    },
  },
  queueMembers: {
    name: "queueMembers",
    owner: { kind: "parent", table: "queues", index: "queue" },
    id: (m: QueueMember) => m.call_sid,
    indexes: { queue: (m: QueueMember) => m.queue_sid },
  },
  applications: {
    name: "applications",
    owner: { kind: "account", index: "account" },
    id: (a: Application) => a.sid,
    indexes: { account: (a: Application) => a.account_sid },
  },
  outgoingCallerIds: {
    name: "outgoingCallerIds",
    owner: { kind: "account", index: "account" },
    id: (c: OutgoingCallerId) => c.sid,
    indexes: {
      account: (c: OutgoingCallerId) => c.account_sid,
      number: (c: OutgoingCallerId) => `${c.account_sid}:${c.phone_number}`,
    },
  },
  usageTotals: {
    name: "usageTotals",
    owner: { kind: "account", index: "account" },
    id: usageTotalId,
    indexes: { account: (t: UsageTotal) => t.account_sid },
  },
} satisfies { [K in keyof StoreSnapshot]: TableDefinition<StoreSnapshot[K][number]> & { owner: Ownership } };

/** Every table's name, in snapshot order. */
export const tableNames = Object.keys(tableDefinitions) as (keyof StoreSnapshot)[];

/** The schema of one row of each table (a snapshot's array elements). */
export const tableRowSchemas = Object.fromEntries(
  tableNames.map((name) => {
    const field = storeSnapshotSchema.shape[name] as z.ZodType;
    const array = (field instanceof z.ZodDefault ? field.def.innerType : field) as z.ZodArray<z.ZodType>;
    return [name, array.element];
  }),
) as { [K in keyof StoreSnapshot]: z.ZodType<StoreSnapshot[K][number]> };
