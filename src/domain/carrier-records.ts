// Carrier-side records: agent extensions, ring groups, SIP trunks, TTS events and the wallet ledger.
import { z } from "zod";
import { decimalString, instant, sid } from "./fields.js";

export const agentStatuses = ["online", "offline", "busy", "away", "dnd"] as const;
export type AgentStatus = (typeof agentStatuses)[number];

export const agentExtensionSchema = z.object({
  sid: sid("AE"),
  account_sid: sid("AC"),
  agent_name: z.string(),
  /** Digits the agent is dialled by, unique within the account. */
  extension: z.string(),
  status: z.enum(agentStatuses),
  created_at: instant,
  updated_at: instant,
});
export type AgentExtension = z.infer<typeof agentExtensionSchema>;

export const ringStrategies = ["simultaneous", "sequential"] as const;

export const ringGroupSchema = z.object({
  sid: sid("RG"),
  account_sid: sid("AC"),
  name: z.string(),
  strategy: z.enum(ringStrategies),
  /** Seconds each ring attempt lasts (each member in turn when sequential). */
  ring_timeout: z.number().int(),
  agent_extension_sids: z.array(sid("AE")),
  created_at: instant,
  updated_at: instant,
});
export type RingGroup = z.infer<typeof ringGroupSchema>;

export const sipTrunkSchema = z.object({
  sid: sid("TK"),
  /** Optional owner; a trunk without one serves the whole carrier. */
  account_sid: sid("AC").nullable(),
  name: z.string(),
  termination_uris: z.array(z.string()),
  username: z.string().nullable(),
  password: z.string().nullable(),
  allowed_ips: z.array(z.string()),
  phone_number_sids: z.array(sid("PN")),
  created_at: instant,
  updated_at: instant,
});
export type SipTrunk = z.infer<typeof sipTrunkSchema>;

export const ttsEventSchema = z.object({
  sid: sid("TT"),
  account_sid: sid("AC"),
  call_sid: sid("CA").nullable(),
  voice: z.string(),
  characters: z.number().int().min(0),
  price: decimalString,
  price_unit: z.string(),
  created_at: instant,
});
export type TtsEvent = z.infer<typeof ttsEventSchema>;

export const ledgerKinds = ["top_up", "debit", "charge"] as const;

/** One change of an account's wallet; the balance is always the sum of the ledger. */
export const ledgerEntrySchema = z.object({
  sid: sid("BT"),
  account_sid: sid("AC"),
  kind: z.enum(ledgerKinds),
  /** Product line: voice, sms, tts, ai, numbers, ... */
  category: z.string(),
  /** Signed minor units: positive adds credit, negative takes it. */
  amount_cents: z.number().int(),
  /** The wallet after this entry. */
  balance_cents: z.number().int(),
  description: z.string().nullable(),
  resource_type: z.string().nullable(),
  resource_sid: z.string().nullable(),
  created_at: instant,
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
