// Whether an account may send or receive a message now: active, with credit its running calls and messages do not hold.

import type { SandboxError } from "../../domain/errors.js";
import { errors } from "../../domain/errors.js";
import type { EngineContext } from "../context/context.js";
import { centsOf, messageCost, type PricedMessage } from "./billing.js";
import { availableCredit } from "./credit-holds.js";
import { balanceOf } from "./ledger.js";

/** A message's price in whole cents, rounded up as the ledger charges it. */
export const messageCents = (ctx: EngineContext, message: PricedMessage): number =>
  centsOf(messageCost(ctx, message));

/**
 * Why the account may not take on a message costing `cents` now, or null when it may. The rule is the
 * calls' (call-admission.ts): suspended accounts are refused (20005, 403); so are wallets at or below zero
 * (402, 20042), and wallets whose balance less what running calls and messages under way hold does not
 * cover the price (402, 20042). So messages, like call minutes, never take the wallet below zero.
 */
export function messageRefusal(ctx: EngineContext, accountSid: string, cents: number): SandboxError | null {
  const account = ctx.store.accounts.get(accountSid);
  if (!account) return null;
  if (account.status === "suspended") return errors.accountSuspended(accountSid);
  const balance = balanceOf(ctx, accountSid);
  if (balance <= 0) return errors.walletEmptyForMessages(accountSid, balance);
  const available = availableCredit(ctx, accountSid);
  if (available < cents) return errors.messageCreditShort(accountSid, balance, balance - available, cents);
  return null;
}

/** Throws the refusal `messageRefusal` finds. */
export function assertMayMessage(ctx: EngineContext, accountSid: string, cents: number): void {
  const refusal = messageRefusal(ctx, accountSid, cents);
  if (refusal) throw refusal;
}

/**
 * Holds an admitted outbound message's price from creation until it is charged (at `sent`) or fails; the
 * message's status changes let go of it (message-status.ts).
 */
export function holdMessagePrice(
  ctx: EngineContext,
  accountSid: string,
  messageSid: string,
  cents: number,
): void {
  ctx.holds?.add(accountSid, messageSid, cents);
}
