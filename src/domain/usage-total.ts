// What dropped charges leave behind: per account, ledger category and day, how many there were, their usage and their cents.
import { z } from "zod";
import { instant, sid } from "./fields.js";

/**
 * The charges of one account, category and day (UTC) whose ledger entries were dropped to keep the store within
 * its bound (engine/context/retention.ts): usage records add these to the entries still kept, so their totals
 * stay what they were.
 */
export const usageTotalSchema = z.object({
  account_sid: sid("AC"),
  /** The ledger category: voice, sms, tts, recording, transcription, ... */
  category: z.string(),
  /** The day, as its UTC midnight. */
  day: instant,
  /** Charges folded in. */
  count: z.number().int().min(0),
  /** Their usage, in the category's unit (minutes, segments, characters), as usage records count it. */
  usage: z.number().min(0),
  /** Cents charged, a positive number. */
  charged_cents: z.number().int(),
});
export type UsageTotal = z.infer<typeof usageTotalSchema>;

export const usageTotalId = (t: Pick<UsageTotal, "account_sid" | "category" | "day">) =>
  `${t.account_sid}/${t.category}/${t.day}`;
