// An account's test credentials (Twilio's test Account SID and test auth token), derived when not given.
import { createHash } from "node:crypto";

export interface TestCredentials {
  test_account_sid: string;
  test_auth_token: string;
}

const hex32 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

/**
 * Derived, not minted: the id generator's sequence (and so every sid a seed gives) stays as it was, and a
 * snapshot written before test credentials existed loads with the same values a fresh account gets.
 * The token comes from the auth token, so knowing the account sid does not give it away.
 */
export function deriveTestCredentials(accountSid: string, authToken: string): TestCredentials {
  return {
    test_account_sid: `AC${hex32(`test-account-sid\0${accountSid}`)}`,
    test_auth_token: hex32(`test-auth-token\0${authToken}`),
  };
}
