// The sandbox's state: indexed tables, atomic multi-table changes, and plain-JSON snapshots.
import { z } from "zod";
import { type Account, accountSchema } from "./account.js";
import { type ApiKey, apiKeySchema } from "./api-key.js";
import { AppendOnlyTable } from "./append-only-table.js";
import { type Application, applicationSchema } from "./application.js";
import { type Call, callSchema } from "./call.js";
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
import { type Message, messageSchema } from "./message.js";
import { type OutgoingCallerId, outgoingCallerIdSchema } from "./outgoing-caller-id.js";
import { type PhoneNumber, phoneNumberSchema } from "./phone-number.js";
import { type Queue, type QueueMember, queueMemberSchema, queueSchema } from "./queue.js";
import { type Rate, rateSchema } from "./rate.js";
import { type Recording, recordingSchema } from "./recording.js";
import type { StoredTable } from "./stored-table.js";
import { compoundKey, type Ownership, Table, type TableChange, type TableDefinition } from "./table.js";
import { type Transcription, transcriptionSchema } from "./transcription.js";

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
});
export type StoreSnapshot = z.infer<typeof storeSnapshotSchema>;

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
    },
  },
  transcriptions: {
    name: "transcriptions",
    owner: { kind: "account", index: "account" },
    id: (t: Transcription) => t.sid,
    indexes: {
      account: (t: Transcription) => t.account_sid,
      recording: (t: Transcription) => t.recording_sid,
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

export type Tables = { [K in keyof StoreSnapshot]: StoredTable<StoreSnapshot[K][number]> };

/** Receives each committed change as one batch: a whole transaction, or a single change made outside one. */
export type ChangeListener = (batch: TableChange[]) => void;

export interface Store extends Tables {
  /** Calls `listener` after every committed change (a journal subscribes here); returns an unsubscribe function. */
  subscribe(listener: ChangeListener): () => void;
  /** Empties every table (not reported to subscribers: a reset is followed by a snapshot). */
  clear(): void;
  /**
   * Runs `change` as one atomic change: if it throws, every table is put back as it was.
   * Nested calls join the outer change.
   */
  transact<R>(change: () => R): R;
  snapshot(): StoreSnapshot;
  /** Every table's rows as they are now, read lazily (see `Table.frozenRows`). */
  capture(): [keyof StoreSnapshot, Iterable<unknown>][];
  /** Replaces all contents; the snapshot is validated first, so a bad one changes nothing. */
  restore(snapshot: unknown): void;
  /**
   * Files the indexes a restart left for later (see DeferredIndex), a step at a time; between steps the
   * store may be read and changed as usual.
   */
  buildIndexes(): Generator<void>;
}

export function createStore(): Store {
  let undoLog: (() => void)[] | null = null;
  let pending: TableChange[] = [];
  const listeners = new Set<ChangeListener>();
  const emit = (batch: TableChange[]) => {
    for (const listener of listeners) listener(batch);
  };
  const recordUndo = (undo: () => void, change: TableChange) => {
    if (undoLog) {
      undoLog.push(undo);
      if (listeners.size > 0) pending.push(change);
    } else if (listeners.size > 0) {
      emit([change]);
    }
  };
  const tables = Object.fromEntries(
    Object.entries(tableDefinitions).map(([key, definition]) => [
      key,
      key === "events"
        ? new AppendOnlyTable(definition as TableDefinition<unknown>, recordUndo)
        : new Table(definition as TableDefinition<unknown>, recordUndo),
    ]),
  ) as unknown as Tables;
  const names = tableNames;

  return {
    ...tables,
    transact(change) {
      if (undoLog) return change();
      const log: (() => void)[] = [];
      undoLog = log;
      pending = [];
      try {
        const result = change();
        undoLog = null;
        const batch = pending;
        pending = [];
        if (batch.length > 0) emit(batch);
        return result;
      } catch (error) {
        undoLog = null;
        pending = [];
        for (let i = log.length - 1; i >= 0; i--) log[i]!();
        throw error;
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    clear() {
      for (const name of names) (tables[name] as StoredTable<unknown>).load([]);
    },
    capture() {
      return names.map((name) => [name, (tables[name] as StoredTable<unknown>).frozenRows()]);
    },
    snapshot() {
      return Object.fromEntries(
        names.map((name) => [name, structuredClone(tables[name].all())]),
      ) as StoreSnapshot;
    },
    *buildIndexes() {
      while (names.some((name) => (tables[name] as StoredTable<unknown>).indexesPending))
        for (const name of names) yield* (tables[name] as StoredTable<unknown>).buildIndexes();
    },
    restore(snapshot) {
      const parsed = storeSnapshotSchema.parse(snapshot);
      for (const name of names) (tables[name] as StoredTable<unknown>).load(parsed[name]);
    },
  };
}
