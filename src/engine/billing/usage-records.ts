// Twilio usage records, computed from the wallet ledger's charges: per category, over a period or per day, month or year.
import type { Account } from "../../domain/account.js";
import type { LedgerEntry } from "../../domain/carrier-records.js";
import { type UsageTotal, usageTotalId } from "../../domain/usage-total.js";
import type { EngineContext } from "../context/context.js";
import { billedMinutes } from "./billing.js";

/** How a ledger category shows in Twilio's usage records (Twilio's names where it has one). */
interface UsageCategory {
  category: string;
  description: string;
  countUnit: string;
  usageUnit: string;
  /** The billed quantity behind one charge: minutes of the call, segments of the message, characters spoken. */
  usageOf(ctx: EngineContext, entry: LedgerEntry): number;
}

const byLedgerCategory: Record<string, UsageCategory> = {
  voice: {
    category: "calls",
    description: "Voice Minutes",
    countUnit: "calls",
    usageUnit: "minutes",
    usageOf: (ctx, entry) => {
      const call = entry.resource_sid ? ctx.store.calls.get(entry.resource_sid) : undefined;
      return call ? billedMinutes(call) : 0;
    },
  },
  sms: {
    category: "sms",
    description: "SMS Messages",
    countUnit: "messages",
    usageUnit: "messages",
    usageOf: (ctx, entry) => {
      const message = entry.resource_sid ? ctx.store.messages.get(entry.resource_sid) : undefined;
      return message?.num_segments ?? 1;
    },
  },
  recording: {
    category: "recordings",
    description: "Voice Minutes Recorded",
    countUnit: "recordings",
    usageUnit: "minutes",
    usageOf: (ctx, entry) => recordedMinutes(ctx, entry.resource_sid),
  },
  transcription: {
    category: "transcriptions",
    description: "Transcription Minutes",
    countUnit: "transcriptions",
    usageUnit: "minutes",
    usageOf: (ctx, entry) => {
      const transcription = entry.resource_sid ? ctx.store.transcriptions.get(entry.resource_sid) : undefined;
      return recordedMinutes(ctx, transcription?.recording_sid ?? null);
    },
  },
  tts: {
    category: "amazon-polly",
    description: "Text-to-Speech",
    countUnit: "calls",
    usageUnit: "characters",
    usageOf: (ctx, entry) =>
      entry.resource_sid
        ? ctx.store.ttsEvents.where("call", entry.resource_sid).reduce((n, t) => n + t.characters, 0)
        : 0,
  },
};

/** Started minutes of a recording, as recordings and transcriptions are billed. */
function recordedMinutes(ctx: EngineContext, recordingSid: string | null): number {
  const recording = recordingSid ? ctx.store.recordings.get(recordingSid) : undefined;
  return recording ? Math.max(1, Math.ceil((recording.duration ?? 0) / 60)) : 0;
}

/** A charge category the table above does not name keeps its ledger name, counted in charges. */
const otherCategory = (name: string): UsageCategory => ({
  category: name,
  description: name,
  countUnit: "charges",
  usageUnit: "charges",
  usageOf: () => 1,
});

const totalPrice = "totalprice";

/** The categories every summary period lists, even at zero, as Twilio's do. */
export const knownUsageCategories = [
  ...Object.values(byLedgerCategory).map((c) => c.category),
  totalPrice,
].sort();

export type SummaryPeriod = "all-time" | "today" | "yesterday" | "this-month" | "last-month";
export type SplitPeriod = "daily" | "monthly" | "yearly";

export interface UsageRecord {
  account_sid: string;
  category: string;
  description: string;
  /** First and last day included, as UTC midnights. */
  start_day: number;
  end_day: number;
  count: number;
  count_unit: string;
  usage: number;
  usage_unit: string;
  /** Total charged, in cents. */
  price_cents: number;
}

const dayMs = 86_400_000;
export const dayOf = (ms: number) => Math.floor(ms / dayMs) * dayMs;
const monthStart = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1);
const nextMonth = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth() + 1, 1);
const yearStart = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), 0, 1);
const nextYear = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear() + 1, 0, 1);

/** The days a summary period covers, as of `now`. */
export function summaryRange(period: SummaryPeriod, now: number, account: Account): [number, number] {
  const today = dayOf(now);
  switch (period) {
    case "all-time":
      return [dayOf(account.created_at), today];
    case "today":
      return [today, today];
    case "yesterday":
      return [today - dayMs, today - dayMs];
    case "this-month":
      return [monthStart(now), today];
    case "last-month": {
      const start = monthStart(monthStart(now) - dayMs);
      return [start, monthStart(now) - dayMs];
    }
  }
}

export interface UsageQuery {
  account: Account;
  /** Also count the subaccounts' charges (Twilio's IncludeSubaccounts, default true). */
  includeSubaccounts: boolean;
  startDay: number;
  endDay: number;
  category?: string | undefined;
}

/** One charge of the ledger, or the sum of those dropped on one day (`UsageTotal`). */
interface Charge {
  at: number;
  kind: UsageCategory;
  count: number;
  usage: number;
  cents: number;
}

const categoryOf = (ledgerCategory: string) =>
  byLedgerCategory[ledgerCategory] ?? otherCategory(ledgerCategory);

/** The charges in the days asked for, of the account (and its subaccounts when asked), dropped ones included. */
function chargesIn(ctx: EngineContext, query: UsageQuery): Charge[] {
  const accounts = [query.account.sid];
  if (query.includeSubaccounts) {
    accounts.push(...ctx.store.accounts.where("parent", query.account.sid).map((a) => a.sid));
  }
  const inRange = (at: number) => dayOf(at) >= query.startDay && dayOf(at) <= query.endDay;
  const charges: Charge[] = [];
  for (const sid of accounts) {
    for (const total of ctx.store.usageTotals.where("account", sid)) {
      if (!inRange(total.day)) continue;
      const kind = categoryOf(total.category);
      charges.push({
        at: total.day,
        kind,
        count: total.count,
        usage: total.usage,
        cents: total.charged_cents,
      });
    }
    for (const entry of ctx.store.ledger.where("account", sid)) {
      if (entry.kind !== "charge" || !inRange(entry.created_at)) continue;
      const kind = categoryOf(entry.category);
      charges.push({
        at: entry.created_at,
        kind,
        count: 1,
        usage: kind.usageOf(ctx, entry),
        cents: -entry.amount_cents,
      });
    }
  }
  return charges;
}

/**
 * Adds charges about to be dropped (engine/context/retention.ts) to their accounts' usage totals, one row per
 * ledger category and day, which usage records read beside the charges still in the ledger. Each charge's usage
 * is read from what it charged for, so that must still be in the store; the charges of one row are summed
 * first and the row written once (a pass can drop dozens of one day's messages: a lowered bound, a restart's
 * sweep).
 */
export function foldCharges(ctx: EngineContext, entries: readonly LedgerEntry[]): void {
  const sums = new Map<string, UsageTotal>();
  for (const entry of entries) {
    if (entry.kind !== "charge") continue;
    const key = { account_sid: entry.account_sid, category: entry.category, day: dayOf(entry.created_at) };
    const id = usageTotalId(key);
    let sum = sums.get(id);
    if (!sum) {
      sum = { ...key, count: 0, usage: 0, charged_cents: 0 };
      sums.set(id, sum);
    }
    sum.count += 1;
    sum.usage += categoryOf(entry.category).usageOf(ctx, entry);
    sum.charged_cents -= entry.amount_cents;
  }
  for (const [id, sum] of sums) {
    const kept = ctx.store.usageTotals.get(id);
    if (!kept) {
      ctx.store.usageTotals.insert(sum);
      continue;
    }
    ctx.store.usageTotals.replace({
      ...sum,
      count: kept.count + sum.count,
      usage: kept.usage + sum.usage,
      charged_cents: kept.charged_cents + sum.charged_cents,
    });
  }
}

function sumUp(
  query: UsageQuery,
  charges: Charge[],
  startDay: number,
  endDay: number,
  everyCategory: boolean,
): UsageRecord[] {
  const records = new Map<string, UsageRecord>();
  const recordOf = (kind: Pick<UsageCategory, "category" | "description" | "countUnit" | "usageUnit">) => {
    let record = records.get(kind.category);
    if (!record) {
      record = {
        account_sid: query.account.sid,
        category: kind.category,
        description: kind.description,
        start_day: startDay,
        end_day: endDay,
        count: 0,
        count_unit: kind.countUnit,
        usage: 0,
        usage_unit: kind.usageUnit,
        price_cents: 0,
      };
      records.set(kind.category, record);
    }
    return record;
  };
  const total = { category: totalPrice, description: "Total Price", countUnit: "", usageUnit: "usd" };
  if (everyCategory) {
    for (const kind of Object.values(byLedgerCategory)) recordOf(kind);
    recordOf(total);
  }
  for (const charge of charges) {
    const record = recordOf(charge.kind);
    record.count += charge.count;
    record.usage += charge.usage;
    record.price_cents += charge.cents;
    const sum = recordOf(total);
    sum.price_cents += charge.cents;
  }
  const totalRecord = records.get(totalPrice);
  if (totalRecord) totalRecord.usage = totalRecord.price_cents / 100;
  return [...records.values()]
    .filter((r) => query.category === undefined || r.category === query.category)
    .sort((a, b) => a.category.localeCompare(b.category));
}

/** One record per category over the whole range (every known category listed, even at zero). */
export function summarizeUsage(ctx: EngineContext, query: UsageQuery): UsageRecord[] {
  return sumUp(query, chargesIn(ctx, query), query.startDay, query.endDay, true);
}

/** Records per day, month or year of the range, for the periods that saw charges, oldest first. */
export function splitUsage(ctx: EngineContext, query: UsageQuery, period: SplitPeriod): UsageRecord[] {
  const charges = chargesIn(ctx, query);
  const [startOf, next] =
    period === "daily"
      ? [dayOf, (ms: number) => dayOf(ms) + dayMs]
      : period === "monthly"
        ? [monthStart, nextMonth]
        : [yearStart, nextYear];
  const groups = new Map<number, Charge[]>();
  for (const charge of charges) {
    const key = startOf(charge.at);
    const group = groups.get(key) ?? [];
    group.push(charge);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([start, group]) =>
      sumUp(
        query,
        group,
        Math.max(start, query.startDay),
        Math.min(next(start) - dayMs, query.endDay),
        false,
      ),
    );
}
