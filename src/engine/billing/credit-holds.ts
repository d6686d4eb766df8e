// Credit held for running calls: a call holds its first minute from admission and each next minute as it

// starts, so calls running at once cannot spend more than the wallet has (docs/engine.md, Billing).
import { parseDecimal } from "../../domain/decimal.js";
import type { CreditHolds, EngineContext } from "../context/context.js";
import { centsOf } from "./billing.js";
import { balanceOf } from "./ledger.js";
import { findRate } from "./rates.js";

export function createCreditHolds(): CreditHolds {
  const byCall = new Map<string, { accountSid: string; cents: number }>();
  const byAccount = new Map<string, number>();
  return {
    heldBy: (accountSid) => byAccount.get(accountSid) ?? 0,
    add(accountSid, callSid, cents) {
      if (cents <= 0) return;
      const hold = byCall.get(callSid) ?? { accountSid, cents: 0 };
      hold.cents += cents;
      byCall.set(callSid, hold);
      byAccount.set(accountSid, (byAccount.get(accountSid) ?? 0) + cents);
    },
    release(callSid) {
      const hold = byCall.get(callSid);
      if (!hold) return;
      byCall.delete(callSid);
      const left = (byAccount.get(hold.accountSid) ?? 0) - hold.cents;
      if (left > 0) byAccount.set(hold.accountSid, left);
      else byAccount.delete(hold.accountSid);
    },
    clear() {
      byCall.clear();
      byAccount.clear();
    },
  };
}

/** What one billed minute of a call to `to` costs, in whole cents rounded up (0 when no rate prices it). */
export function minuteCents(ctx: EngineContext, to: string): number {
  const rate = findRate(ctx, "voice", to);
  return rate ? centsOf(parseDecimal(rate.price)) : 0;
}

/** The wallet's balance less what running calls hold. */
export function availableCredit(ctx: EngineContext, accountSid: string): number {
  return balanceOf(ctx, accountSid) - (ctx.holds?.heldBy(accountSid) ?? 0);
}
