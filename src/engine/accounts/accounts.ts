// Accounts: create, change, suspend and delete, with the cascades the spec describes.
import { type Account, type AccountStatus, defaultTtsVoice } from "../../domain/account.js";
import { errors } from "../../domain/errors.js";
import { found } from "../../domain/found.js";
import { type ReleasedTable, rowsOwnedBy } from "../../domain/ownership.js";
import { deriveTestCredentials } from "../../domain/test-credentials.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { withChanges } from "../context/record-changes.js";
import { releaseNumber } from "./phone-numbers.js";

export interface AccountInput {
  name: string;
  default_tts_voice?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** Fixtures may fix the sid and token so test suites can hard-code them. */
  sid?: string | undefined;
  auth_token?: string | undefined;
  /** Twilio's test credentials; derived from the sid and auth token when not given. */
  test_account_sid?: string | undefined;
  test_auth_token?: string | undefined;
  status?: AccountStatus | undefined;
  /** Makes the new account a Twilio subaccount of this one. */
  parent_account_sid?: string | null | undefined;
  media_auth?: boolean | undefined;
  whatsapp_senders?: string[] | undefined;
}

export interface AccountChanges {
  name?: string | undefined;
  status?: AccountStatus | undefined;
  default_tts_voice?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  media_auth?: boolean | undefined;
  whatsapp_senders?: string[] | undefined;
}

/** Twilio's test credentials: the fixture's, or derived from the live ones. */
function testCredentials(sid: string, authToken: string, input: AccountInput) {
  const derived = deriveTestCredentials(sid, authToken);
  return {
    test_account_sid: input.test_account_sid ?? derived.test_account_sid,
    test_auth_token: input.test_auth_token ?? derived.test_auth_token,
  };
}

export function getAccount(ctx: EngineContext, sid: string, path: string): Account {
  return found(ctx.store.accounts.get(sid), path);
}

export function createAccount(ctx: EngineContext, input: AccountInput): Account {
  return ctx.store.transact(() => {
    const now = ctx.clock.now();
    const sid = input.sid ?? ctx.ids.mint("AC");
    const authToken = input.auth_token ?? ctx.ids.secret();
    const account = ctx.store.accounts.insert({
      sid,
      name: input.name,
      status: input.status ?? "active",
      default_tts_voice: input.default_tts_voice ?? defaultTtsVoice,
      metadata: input.metadata ?? {},
      auth_token: authToken,
      ...testCredentials(sid, authToken, input),
      parent_account_sid: input.parent_account_sid ?? null,
      closed_at: null,
      media_auth: input.media_auth ?? false,
      whatsapp_senders: input.whatsapp_senders ?? [],
      created_at: now,
      updated_at: now,
    });
    recordEvent(ctx, "account.created", account.sid, "account", account);
    return account;
  });
}

export function updateAccount(ctx: EngineContext, account: Account, changes: AccountChanges): Account {
  if (account.closed_at !== null && changes.status === "active") {
    throw errors.unprocessable(
      `Account ${account.sid} was closed as a Twilio subaccount, and a closed account stays closed; create a new one instead.`,
      { pointer: "/data/attributes/status" },
    );
  }
  return ctx.store.transact(() => {
    const updated = ctx.store.accounts.replace(withChanges(account, changes, ctx.clock.now()));
    if (changes.status !== undefined && changes.status !== account.status) {
      recordEvent(
        ctx,
        updated.status === "suspended" ? "account.suspended" : "account.activated",
        updated.sid,
        "account",
        updated,
      );
    }
    recordEvent(ctx, "account.updated", updated.sid, "account", updated);
    return updated;
  });
}

/** How each table that goes back to the carrier is cleared of a deleted account (domain/ownership.ts). */
const releasers: {
  [K in ReleasedTable]: (ctx: EngineContext, account: Account, released: Set<string>) => void;
} = {
  // Its numbers go back to the inventory (first: trunks let go of exactly these).
  phoneNumbers(ctx, account, released) {
    for (const number of ctx.store.phoneNumbers.where("account", account.sid)) {
      released.add(number.sid);
      releaseNumber(ctx, number);
    }
  },
  // Its trunks serve the carrier again, and no trunk routes its numbers any more.
  sipTrunks(ctx, account, released) {
    for (const trunk of ctx.store.sipTrunks.all()) {
      const owns = trunk.account_sid === account.sid;
      const routesNumbers = trunk.phone_number_sids.some((sid) => released.has(sid));
      if (!owns && !routesNumbers) continue;
      ctx.store.sipTrunks.replace({
        ...trunk,
        account_sid: owns ? null : trunk.account_sid,
        phone_number_sids: trunk.phone_number_sids.filter((sid) => !released.has(sid)),
        updated_at: ctx.clock.now(),
      });
    }
  },
};

/**
 * Removes the account for good (spec: "its numbers, credentials and call history are removed"): what
 * goes back to the carrier is released (numbers, trunks), and every row the account owns, directly or
 * through a parent, is deleted, as each table declares its ownership (domain/store.ts). The carrier's
 * event log keeps what happened.
 */
export function deleteAccount(ctx: EngineContext, account: Account): void {
  ctx.store.transact(() => {
    // Twilio subaccounts go with their parent.
    for (const sub of ctx.store.accounts.where("parent", account.sid)) deleteAccount(ctx, sub);
    const released = new Set<string>();
    releasers.phoneNumbers(ctx, account, released);
    for (const { table, ids } of rowsOwnedBy(ctx.store, account.sid)) {
      const rows = ctx.store[table] as unknown as { delete(id: string): unknown };
      for (const id of ids) rows.delete(id);
    }
    releasers.sipTrunks(ctx, account, released);
    ctx.store.accounts.delete(account.sid);
    recordEvent(ctx, "account.deleted", account.sid, "account", account);
  });
}
