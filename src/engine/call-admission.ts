// Whether an account may make or take a call now: active, and with credit in its wallet.
import { errors } from "../domain/errors.js";
import type { EngineContext } from "./context.js";
import { balanceOf } from "./ledger.js";

/**
 * Suspended accounts are refused (Twilio 20005, 403); so are accounts whose wallet is at or below zero
 * (402, code 20042): usage already made is still charged and may take the wallet below zero.
 */
export function assertMayCall(ctx: EngineContext, accountSid: string): void {
  const account = ctx.store.accounts.get(accountSid);
  if (!account) return;
  if (account.status === "suspended") throw errors.accountSuspended(accountSid);
  const balance = balanceOf(ctx, accountSid);
  if (balance <= 0) throw errors.walletEmpty(accountSid, balance);
}
