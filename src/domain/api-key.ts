// Scoped API keys: bearer tokens that act on one account within a set of scopes.
import { z } from "zod";
import { instant, sid } from "./fields.js";

/** The ten account scopes of the spec (part 5, rule 4): read covers GET, write covers changes. */
export const accountScopes = [
  "phone_calls_read",
  "phone_calls_write",
  "messages_read",
  "messages_write",
  "incoming_phone_numbers_read",
  "incoming_phone_numbers_write",
  "recordings_read",
  "recordings_write",
  "agent_extensions_read",
  "agent_extensions_write",
] as const;
export type AccountScope = (typeof accountScopes)[number];

export const apiKeySchema = z.object({
  sid: sid("SK"),
  account_sid: sid("AC"),
  /** The bearer secret. */
  key: z.string().min(16),
  scopes: z.array(z.enum(accountScopes)),
  friendly_name: z.string().nullable(),
  created_at: instant,
});
export type ApiKey = z.infer<typeof apiKeySchema>;
