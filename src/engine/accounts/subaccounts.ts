// Twilio subaccounts: carrier accounts linked to a parent, created, renamed, suspended, reactivated and closed by it.
import type { Account } from "../../domain/account.js";
import { errors } from "../../domain/errors.js";
import type { EngineContext } from "../context/context.js";
import { createAccount, updateAccount } from "./accounts.js";
import { releaseNumber } from "./phone-numbers.js";

/** The statuses Twilio's account resource shows: `closed` is a suspended account closed for good. */
export type TwilioAccountStatus = "active" | "suspended" | "closed";

export const twilioStatusOf = (account: Account): TwilioAccountStatus =>
  account.closed_at !== null ? "closed" : account.status;

/** Twilio's default name for a subaccount created without one. */
const defaultName = (now: number) =>
  `SubAccount Created at ${new Date(now).toISOString().slice(0, 16).replace("T", " ")}`;

/** Only main accounts have subaccounts, as on Twilio. */
export function createSubaccount(ctx: EngineContext, parent: Account, friendlyName?: string): Account {
  if (parent.parent_account_sid !== null) {
    throw errors.forbidden(
      `Account ${parent.sid} is itself a subaccount and cannot create subaccounts; create them with its parent ${parent.parent_account_sid}.`,
    );
  }
  return createAccount(ctx, {
    name: friendlyName || defaultName(ctx.clock.now()),
    default_tts_voice: parent.default_tts_voice,
    parent_account_sid: parent.sid,
  });
}

/** The account and, for a main account, its subaccounts: what Twilio's account list shows its credentials. */
export function accountsVisibleTo(ctx: EngineContext, account: Account): Account[] {
  return [account, ...ctx.store.accounts.where("parent", account.sid)];
}

export interface TwilioAccountChanges {
  friendlyName?: string | undefined;
  status?: TwilioAccountStatus | undefined;
}

/**
 * Twilio's account update by `actor`: any account renames itself or its subaccounts; only a parent
 * changes a subaccount's status. Closing is for good (its numbers are released); a closed account changes no more.
 */
export function updateTwilioAccount(
  ctx: EngineContext,
  actor: Account,
  account: Account,
  changes: TwilioAccountChanges,
): Account {
  if (account.closed_at !== null) {
    throw errors.invalidParameter(
      changes.status !== undefined ? "Status" : "FriendlyName",
      `Account ${account.sid} is closed, and a closed account cannot be changed or reopened.`,
      20005,
    );
  }
  if (changes.status !== undefined && account.parent_account_sid === null) {
    throw errors.invalidParameter(
      "Status",
      `Account ${account.sid} is a main account: only a subaccount's status changes here (the carrier suspends main accounts with PATCH /carrier/v1/accounts/${account.sid}).`,
    );
  }
  if (changes.status !== undefined && actor.sid !== account.parent_account_sid) {
    throw errors.forbidden(
      `A subaccount's status is changed with its parent's credentials (${account.parent_account_sid}), not its own.`,
    );
  }
  return ctx.store.transact(() => {
    const closing = changes.status === "closed";
    let updated = updateAccount(ctx, account, {
      name: changes.friendlyName || undefined,
      status: changes.status === "closed" ? "suspended" : changes.status,
    });
    if (closing) {
      for (const number of ctx.store.phoneNumbers.where("account", account.sid)) releaseNumber(ctx, number);
      updated = ctx.store.accounts.replace({ ...updated, closed_at: ctx.clock.now() });
    }
    return updated;
  });
}
