// Whether an account may make or take a call now: active, and with credit its running calls and messages do not hold.
import { errors } from "../../domain/errors.js";
import type { EngineContext } from "../context/context.js";
import { availableCredit, minuteCents } from "./credit-holds.js";
import { balanceOf } from "./ledger.js";

/**
 * Suspended accounts are refused (Twilio 20005, 403); so are accounts whose wallet is at or below zero
 * (402, code 20042), and accounts whose running calls and messages hold so much of it that the call's
 * first minute (priced by `to`) does not fit. Usage measured after the fact is still charged (TTS,
 * recordings, transcriptions may take the wallet below zero); call minutes never do, since each is held
 * before it is spoken, nor do messages (message-admission.ts).
 */
export function assertMayCall(ctx: EngineContext, accountSid: string, to?: string): void {
  const account = ctx.store.accounts.get(accountSid);
  if (!account) return;
  if (account.status === "suspended") throw errors.accountSuspended(accountSid);
  const balance = balanceOf(ctx, accountSid);
  if (balance <= 0) throw errors.walletEmpty(accountSid, balance);
  if (to === undefined) return;
  const available = availableCredit(ctx, accountSid);
  if (available < minuteCents(ctx, to)) throw errors.creditHeld(accountSid, balance, balance - available);
}

/** Admits a call (as `assertMayCall`) and holds its first minute, once the call exists. */
export function holdFirstMinute(ctx: EngineContext, accountSid: string, callSid: string, to: string): void {
  ctx.holds?.add(accountSid, callSid, minuteCents(ctx, to));
}
