// The account: one tenant of the carrier, with the master auth token used on the account API.
import { z } from "zod";
import { e164, instant, metadata, sid } from "./fields.js";
import { deriveTestCredentials } from "./test-credentials.js";

export const accountStatuses = ["active", "suspended"] as const;
export type AccountStatus = (typeof accountStatuses)[number];

export const accountSchema = z
  .object({
    sid: sid("AC"),
    name: z.string().min(1),
    status: z.enum(accountStatuses),
    default_tts_voice: z.string(),
    metadata,
    auth_token: z.string().min(1),
    // Twilio's test credentials (see engine/test-credentials/test-credentials.ts); snapshots from before they existed lack them.
    test_account_sid: sid("AC").optional(),
    test_auth_token: z.string().min(1).optional(),
    /** Twilio subaccounts: the parent whose master credentials also act on this account (null: a main account). */
    parent_account_sid: sid("AC").nullable().default(null),
    /** Twilio's `closed` status: a subaccount closed for good (carrier status stays `suspended`). */
    closed_at: instant.nullable().default(null),
    /** Twilio's "HTTP Basic authentication for media": recording media then needs the account's credentials. */
    media_auth: z.boolean().default(false),
    /** The account's numbers registered as WhatsApp senders (`whatsapp:` plus one of these may send). */
    whatsapp_senders: z.array(e164).default([]),
    created_at: instant,
    updated_at: instant,
  })
  .transform((account) => ({ ...account, ...testCredentialsOf(account) }));
export type Account = z.infer<typeof accountSchema>;

function testCredentialsOf(account: {
  sid: string;
  auth_token: string;
  test_account_sid?: string | undefined;
  test_auth_token?: string | undefined;
}) {
  const derived = deriveTestCredentials(account.sid, account.auth_token);
  return {
    test_account_sid: account.test_account_sid ?? derived.test_account_sid,
    test_auth_token: account.test_auth_token ?? derived.test_auth_token,
  };
}

/** The voice accounts start with when none is given. */
export const defaultTtsVoice = "Basic.Kal";
