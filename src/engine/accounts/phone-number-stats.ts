// Inventory statistics: counts by status, visibility and country, and the monthly revenue of assigned numbers.
import { formatDecimal, sumDecimals } from "../../domain/decimal.js";
import { phoneNumberStatuses, visibilities } from "../../domain/phone-number.js";
import type { EngineContext } from "../context/context.js";

export interface StatsQuery {
  /** First and last day of the period, as UTC dates "YYYY-MM-DD"; defaults: this month so far. */
  fromDate?: string | undefined;
  toDate?: string | undefined;
  accountSid?: string | undefined;
}

export interface MonthRevenue {
  month: string;
  assigned_numbers: number;
  revenue: string;
}

export interface PhoneNumberStats {
  from_date: string;
  to_date: string;
  account_id: string | null;
  total: number;
  by_status: Record<string, number>;
  by_visibility: Record<string, number>;
  by_country: Record<string, number>;
  monthly_revenue: MonthRevenue[];
  revenue: string;
  currency: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`);
const nextDayStart = (date: string) => dayStart(date) + 86_400_000;

/** The calendar months that overlap [from, to], each with its last instant (capped at the period's end). */
function monthsOf(from: string, to: string): { month: string; end: number }[] {
  const months: { month: string; end: number }[] = [];
  const last = nextDayStart(to);
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(5, 7)) - 1;
  for (;;) {
    const start = Date.UTC(year, month, 1);
    if (start >= last) break;
    const end = Math.min(Date.UTC(year, month + 1, 1), last);
    months.push({ month: new Date(start).toISOString().slice(0, 7), end });
    month++;
    if (month === 12) {
      month = 0;
      year++;
    }
  }
  return months;
}

/**
 * Counts the inventory as it stands at the end of the period (numbers added after it are left out),
 * and bills each month the monthly price of every number assigned by that month's end.
 */
export function phoneNumberStats(ctx: EngineContext, query: StatsQuery): PhoneNumberStats {
  const today = day(ctx.clock.now());
  const toDate = query.toDate ?? today;
  const fromDate = query.fromDate ?? `${toDate.slice(0, 7)}-01`;
  const periodEnd = nextDayStart(toDate);
  const accountSid = query.accountSid ?? null;
  const numbers = (
    accountSid ? ctx.store.phoneNumbers.where("account", accountSid) : ctx.store.phoneNumbers.all()
  ).filter((n) => n.created_at < periodEnd);

  const count = (keys: readonly string[], keyOf: (n: (typeof numbers)[number]) => string) => {
    const counts: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
    for (const n of numbers) counts[keyOf(n)] = (counts[keyOf(n)] ?? 0) + 1;
    return counts;
  };
  const byCountry: Record<string, number> = {};
  for (const n of [...numbers].sort((a, b) => a.country.localeCompare(b.country))) {
    byCountry[n.country] = (byCountry[n.country] ?? 0) + 1;
  }

  const monthly = monthsOf(fromDate, toDate).map(({ month, end }) => {
    const billed = numbers.filter((n) => n.assigned_at !== null && n.assigned_at < end);
    return {
      month,
      assigned_numbers: billed.length,
      revenue: formatDecimal(sumDecimals(billed.map((n) => n.price)), 2),
    };
  });

  return {
    from_date: fromDate,
    to_date: toDate,
    account_id: accountSid,
    total: numbers.length,
    by_status: count(phoneNumberStatuses, (n) => n.status),
    by_visibility: count(visibilities, (n) => n.visibility),
    by_country: byCountry,
    monthly_revenue: monthly,
    revenue: formatDecimal(sumDecimals(monthly.map((m) => m.revenue)), 2),
    currency: "USD",
  };
}
