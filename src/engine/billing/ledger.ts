// The wallet: one balance per account in integer cents, every change a ledger entry carrying the running balance after it.
import type { LedgerEntry } from "../../domain/carrier-records.js";
import { errors } from "../../domain/errors.js";
import { compoundKey } from "../../domain/table.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";

export interface LedgerInput {
  /** Product line: voice, sms, tts, ai, numbers, ... */
  category: string;
  /** A positive whole number of cents. */
  amount_cents: number;
  description?: string | null | undefined;
}

export interface ChargeInput extends LedgerInput {
  /** What was charged for, e.g. `phone_call` and its sid. */
  resource_type?: string | null | undefined;
  resource_sid?: string | null | undefined;
}

/**
 * The account's balance in cents: the running balance of its newest entry (0 with no entries), read from
 * the end of the account's index without walking its history.
 */
export function balanceOf(ctx: EngineContext, accountSid: string): number {
  return ctx.store.ledger.latest("account", accountSid)?.balance_cents ?? 0;
}

/** The account's entries, newest first, optionally of one category. */
export function listTransactions(ctx: EngineContext, accountSid: string, category?: string): LedgerEntry[] {
  const entries =
    category === undefined
      ? ctx.store.ledger.scan({ index: "account", key: accountSid, reverse: true })
      : ctx.store.ledger.scan({ index: "category", key: compoundKey(accountSid, category)!, reverse: true });
  return [...entries];
}

/** Adds credit to the wallet. */
export function topUp(ctx: EngineContext, accountSid: string, input: LedgerInput): LedgerEntry {
  return post(ctx, accountSid, "top_up", input.amount_cents, input);
}

/** A manual deduction (refund or correction); refused when larger than the balance. */
export function debit(ctx: EngineContext, accountSid: string, input: LedgerInput): LedgerEntry {
  return ctx.store.transact(() => {
    const balance = balanceOf(ctx, accountSid);
    if (input.amount_cents > balance) {
      throw errors.insufficientBalance(accountSid, balance, input.amount_cents);
    }
    return post(ctx, accountSid, "debit", -input.amount_cents, input);
  });
}

/**
 * What the engine takes for calls, messages and TTS. Usage already happened, so a charge is never refused;
 * admission keeps call minutes and messages within the wallet (they are held first: call-admission.ts,
 * message-admission.ts), and only usage measured after the fact (TTS, recordings) may take it below zero.
 */
export function charge(ctx: EngineContext, accountSid: string, input: ChargeInput): LedgerEntry {
  return post(ctx, accountSid, "charge", -input.amount_cents, input);
}

function post(
  ctx: EngineContext,
  accountSid: string,
  kind: LedgerEntry["kind"],
  signedAmount: number,
  input: ChargeInput,
): LedgerEntry {
  if (!Number.isSafeInteger(input.amount_cents) || input.amount_cents <= 0) {
    throw errors.unprocessable("amount_cents must be a positive whole number of cents, e.g. 500 for $5.00.", {
      pointer: "/amount_cents",
    });
  }
  if (input.category.trim() === "") {
    throw errors.unprocessable("category must not be blank; name the product line, e.g. voice or sms.", {
      pointer: "/category",
    });
  }
  // One transaction reads the balance and appends the entry, so concurrent requests never lose one.
  return ctx.store.transact(() => {
    const entry = ctx.store.ledger.insert({
      sid: ctx.ids.mint("BT"),
      account_sid: accountSid,
      kind,
      category: input.category,
      amount_cents: signedAmount,
      balance_cents: balanceOf(ctx, accountSid) + signedAmount,
      description: input.description ?? null,
      resource_type: input.resource_type ?? null,
      resource_sid: input.resource_sid ?? null,
      created_at: ctx.clock.now(),
    });
    recordEvent(ctx, `balance.${kind}`, accountSid, "balance_transaction", entry);
    return entry;
  });
}
