// A verified outgoing caller ID: a number the account proved it owns, usable as the From of its calls.
import { z } from "zod";
import { e164, instant, sid } from "./fields.js";

export const outgoingCallerIdSchema = z.object({
  sid: sid("PN"),
  account_sid: sid("AC"),
  phone_number: e164,
  friendly_name: z.string().max(64),
  created_at: instant,
  updated_at: instant,
});
export type OutgoingCallerId = z.infer<typeof outgoingCallerIdSchema>;
