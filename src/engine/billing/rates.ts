// Carrier rates: price lookup by longest matching prefix, and the rate sheet's create, update and delete.
import { errors } from "../../domain/errors.js";
import { found } from "../../domain/found.js";
import type { Rate } from "../../domain/rate.js";
import { compoundKey } from "../../domain/table.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { withChanges } from "../context/record-changes.js";

export type RateCategory = Rate["category"];

export interface NewRate {
  category: RateCategory;
  country: string;
  prefix: string;
  price: string;
  currency?: string | undefined;
}

export type RateChanges = Partial<NewRate>;

/** The longest a rate's prefix can be: "+" and 15 digits (domain/rate.ts). */
const maxPrefixLength = 16;

/** The rate for `number` in `category`: the longest prefix of the number wins ("+1800" over "+1"). */
export function findRate(ctx: EngineContext, category: RateCategory, number: string): Rate | undefined {
  // Longest prefix first, one index lookup each, however many rates the carrier has; a prefix is "+" and at
  // most 15 digits, so a longer address (sip:, client:) tries no more than 15.
  for (let end = Math.min(number.length, maxPrefixLength); end >= 2; end--) {
    const rate = ctx.store.rates.findOne("prefix", compoundKey(category, number.slice(0, end))!);
    if (rate) return rate;
  }
  return undefined;
}

export function getRate(ctx: EngineContext, sid: string, path: string): Rate {
  return found(ctx.store.rates.get(sid), path);
}

function assertPrefixFree(ctx: EngineContext, category: RateCategory, prefix: string, except?: string): void {
  const clash = ctx.store.rates.findOne("prefix", compoundKey(category, prefix)!);
  if (clash && clash.sid !== except) {
    throw errors.unprocessable(
      `A ${category} rate for prefix ${prefix} already exists (${clash.sid}). PATCH that rate instead.`,
      { pointer: "/data/attributes/prefix" },
    );
  }
}

export function createRate(ctx: EngineContext, input: NewRate): Rate {
  return ctx.store.transact(() => {
    assertPrefixFree(ctx, input.category, input.prefix);
    const now = ctx.clock.now();
    const rate = ctx.store.rates.insert({
      sid: ctx.ids.mint("RT"),
      category: input.category,
      country: input.country,
      prefix: input.prefix,
      price: input.price,
      currency: input.currency ?? "USD",
      created_at: now,
      updated_at: now,
    });
    recordEvent(ctx, "rate.created", null, "rate", rate);
    return rate;
  });
}

export function updateRate(ctx: EngineContext, rate: Rate, changes: RateChanges): Rate {
  return ctx.store.transact(() => {
    const next = withChanges(rate, changes, ctx.clock.now());
    assertPrefixFree(ctx, next.category, next.prefix, rate.sid);
    const updated = ctx.store.rates.replace(next);
    recordEvent(ctx, "rate.updated", null, "rate", updated);
    return updated;
  });
}

export function deleteRate(ctx: EngineContext, rate: Rate): void {
  ctx.store.transact(() => {
    ctx.store.rates.delete(rate.sid);
    recordEvent(ctx, "rate.deleted", null, "rate", rate);
  });
}
