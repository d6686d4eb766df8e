// Credit held for running calls and messages under way: a call holds its first minute from admission and each
// next minute as it starts, a message its price until it is charged or fails, so what runs at once cannot spend
// more than the wallet has (docs/engine.md, Billing).
import { parseDecimal } from "../../domain/decimal.js";
import type { CreditHolds, EngineContext } from "../context/context.js";
import { centsOf } from "./billing.js";
import { balanceOf } from "./ledger.js";
import { findRate } from "./rates.js";

export function createCreditHolds(): CreditHolds {
  /** Holds by the call's or message's sid. */
  const bySid = new Map<string, { accountSid: string; cents: number }>();
  const byAccount = new Map<string, number>();
  return {
    heldBy: (accountSid) => byAccount.get(accountSid) ?? 0,
    add(accountSid, sid, cents) {
      if (cents <= 0) return;
      const hold = bySid.get(sid) ?? { accountSid, cents: 0 };
      hold.cents += cents;
      bySid.set(sid, hold);
      byAccount.set(accountSid, (byAccount.get(accountSid) ?? 0) + cents);
    },
    release(sid) {
      const hold = bySid.get(sid);
      if (!hold) return;
      bySid.delete(sid);
      const left = (byAccount.get(hold.accountSid) ?? 0) - hold.cents;
      if (left > 0) byAccount.set(hold.accountSid, left);
      else byAccount.delete(hold.accountSid);
    },
    clear() {
      bySid.clear();
      byAccount.clear();
    },
  };
}

/** What one billed minute of a call to `to` costs, in whole cents rounded up (0 when no rate prices it). */
export function minuteCents(ctx: EngineContext, to: string): number {
  const rate = findRate(ctx, "voice", to);
  return rate ? centsOf(parseDecimal(rate.price)) : 0;
}

/** The wallet's balance less what running calls and messages under way hold. */
export function availableCredit(ctx: EngineContext, accountSid: string): number {
  return balanceOf(ctx, accountSid) - (ctx.holds?.heldBy(accountSid) ?? 0);
}
