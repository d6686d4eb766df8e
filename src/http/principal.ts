// Who is calling (the principal auth.ts resolves credentials to) and what a route requires of them.
import type { AccountScope } from "../domain/api-key.js";

export type Principal =
  | { kind: "anonymous" }
  | { kind: "invalid"; reason: string }
  | { kind: "account"; accountSid: string }
  /** Twilio test credentials: acts on the path `testAccountSid` and changes nothing (engine/test-credentials/test-credentials.ts). */
  | { kind: "account-test"; accountSid: string; testAccountSid: string }
  | { kind: "api-key"; accountSid: string; keySid: string; scopes: readonly AccountScope[] }
  | { kind: "carrier" }
  | { kind: "admin" };

export type AuthRequirement =
  /** Account API: the account's own credentials (master token, or an API key holding `scope`). */
  | {
      kind: "account";
      /** The API key scope needed; `null`: the account's master credentials only (Twilio's standard keys cannot). */
      scope: AccountScope | null;
      carrier?: "allowed" | "only";
      /**
       * Recording media (a path without `.json`): public, as Twilio serves it, unless the account turned media
       * auth on; then the credentials above are needed.
       */
      publicMedia?: boolean;
    }
  /** Carrier API: the carrier key. */
  | { kind: "carrier" }
  /** Admin API (`/__sandbox`): the admin token when one is set. */
  | { kind: "admin" }
  | { kind: "none" };
