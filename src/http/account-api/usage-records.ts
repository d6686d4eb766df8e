// Usage records (all, all time, today, yesterday, this and last month, daily, monthly, yearly) and the Balance, from the ledger.
import { z } from "zod";
import { found } from "../../domain/found.js";
import { balanceOf } from "../../engine/billing/ledger.js";
import {
  dayOf,
  type SplitPeriod,
  type SummaryPeriod,
  splitUsage,
  summarizeUsage,
  summaryRange,
  type UsageRecord,
} from "../../engine/billing/usage-records.js";
import { buildQuery } from "../params.js";
import { twilioJson } from "../respond.js";
import { defineRoute } from "../route.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { formBoolean } from "./form-fields.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";

/** Twilio's usage record (`api.v2010.account.usage.usage_record`). */
export const usageRecordResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    api_version: z.string(),
    as_of: z.string(),
    category: z.string(),
    count: z.string(),
    count_unit: z.string(),
    description: z.string(),
    end_date: z.string(),
    price: z.number(),
    price_unit: z.string(),
    start_date: z.string(),
    subresource_uris: z.record(z.string(), z.string()),
    uri: z.string(),
    usage: z.string(),
    usage_unit: z.string(),
  }),
);

/** Twilio's balance (`api.v2010.account.balance`). */
export const balanceResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    balance: z.string(),
    currency: z.string(),
  }),
);

/** Each list under Records, by its path segment and the key Twilio names it by in `subresource_uris`. */
const lists: { segment: string; key: string; period: SummaryPeriod | SplitPeriod | "all" }[] = [
  { segment: "", key: "", period: "all" },
  { segment: "AllTime", key: "all_time", period: "all-time" },
  { segment: "Today", key: "today", period: "today" },
  { segment: "Yesterday", key: "yesterday", period: "yesterday" },
  { segment: "ThisMonth", key: "this_month", period: "this-month" },
  { segment: "LastMonth", key: "last_month", period: "last-month" },
  { segment: "Daily", key: "daily", period: "daily" },
  { segment: "Monthly", key: "monthly", period: "monthly" },
  { segment: "Yearly", key: "yearly", period: "yearly" },
];

const recordsPath = (accountSid: string, segment: string) =>
  accountPath(accountSid, segment ? `Usage/Records/${segment}.json` : "Usage/Records.json");

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function renderUsage(record: UsageRecord, segment: string, now: number): z.infer<typeof usageRecordResource> {
  const category = [["Category", record.category]] as [string, string][];
  return {
    account_sid: record.account_sid,
    api_version: apiVersion,
    as_of: new Date(now).toISOString().replace(/\.\d{3}Z$/, "+00:00"),
    category: record.category,
    count: String(record.count),
    count_unit: record.count_unit,
    description: record.description,
    end_date: isoDay(record.end_day),
    price: record.price_cents / 100,
    price_unit: "usd",
    start_date: isoDay(record.start_day),
    subresource_uris: Object.fromEntries(
      lists
        .filter((l) => l.segment !== "")
        .map((l) => [l.key, `${recordsPath(record.account_sid, l.segment)}?${buildQuery(category)}`]),
    ),
    uri: `${recordsPath(record.account_sid, segment)}?${buildQuery([
      ...category,
      ["StartDate", isoDay(record.start_day)],
      ["EndDate", isoDay(record.end_day)],
    ])}`,
    usage: String(record.usage),
    usage_unit: record.usage_unit,
  };
}

/** `YYYY-MM-DD`, or Twilio's offsets from today (`-30days`, `+7days`), as a UTC midnight. */
type DateValue = { day: number } | { offsetDays: number };
const usageDate = z.lazy(() =>
  z.string().transform((value, ctx): DateValue => {
    const offset = /^([+-]\d{1,5})days$/.exec(value);
    if (offset) return { offsetDays: Number(offset[1]) };
    const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
    if (Number.isNaN(day)) {
      ctx.addIssue({ code: "custom", message: "must be a date as YYYY-MM-DD or an offset such as -30days" });
      return z.NEVER;
    }
    return { day };
  }),
);

const usageQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    Category: z.string().optional(),
    StartDate: usageDate.optional(),
    EndDate: usageDate.optional(),
    IncludeSubaccounts: formBoolean.optional(),
  }),
);

const resolveDay = (value: DateValue, today: number): number =>
  "day" in value ? value.day : today + value.offsetDays * 86_400_000;

const usageRoute = ({ segment, period }: (typeof lists)[number]) =>
  defineRoute({
    method: "GET",
    path: `${accountBase}/Usage/Records${segment ? `/${segment}` : ""}`,
    surface: "account",
    summary:
      period === "all"
        ? "Usage per category, from the ledger's charges (StartDate, EndDate, Category, IncludeSubaccounts)"
        : `Usage per category, ${period}`,
    auth: { kind: "account", scope: null },
    query: usageQuery,
    response: z.lazy(() => listSchema("usage_records", usageRecordResource)),
    handle({ params, query, request, services }) {
      const ctx = services.context;
      const account = found(ctx.store.accounts.get(params.AccountSid!), request.path);
      const now = ctx.clock.now();
      const today = dayOf(now);
      // Twilio's summary lists cover their own period; the others run from the account's first day to today.
      const [defaultStart, defaultEnd] =
        period === "all" || period === "daily" || period === "monthly" || period === "yearly"
          ? summaryRange("all-time", now, account)
          : summaryRange(period, now, account);
      const usage = {
        account,
        includeSubaccounts: query.IncludeSubaccounts ?? true,
        startDay: query.StartDate ? resolveDay(query.StartDate, today) : defaultStart,
        endDay: query.EndDate ? resolveDay(query.EndDate, today) : defaultEnd,
        category: query.Category || undefined,
      };
      const records =
        period === "daily" || period === "monthly" || period === "yearly"
          ? splitUsage(ctx, usage, period)
          : summarizeUsage(ctx, usage);
      const echo: [string, string][] = [];
      if (query.Category) echo.push(["Category", query.Category]);
      if (query.StartDate) echo.push(["StartDate", isoDay(usage.startDay)]);
      if (query.EndDate) echo.push(["EndDate", isoDay(usage.endDay)]);
      return twilioJson(
        200,
        listEnvelope({
          key: "usage_records",
          path: recordsPath(account.sid, segment),
          filters: echo,
          page: query,
          records,
          render: (r) => renderUsage(r, segment, now),
          sidOf: (r) => `${r.category}${isoDay(r.start_day)}`,
        }),
      );
    },
  });

export const usageRoutes = [
  ...lists.map(usageRoute),
  defineRoute({
    method: "GET",
    path: `${accountBase}/Balance`,
    surface: "account",
    summary: "The account's wallet balance, in dollars",
    auth: { kind: "account", scope: null },
    response: balanceResource,
    handle({ params, request, services }) {
      const account = found(services.context.store.accounts.get(params.AccountSid!), request.path);
      const cents = balanceOf(services.context, account.sid);
      return twilioJson(200, {
        account_sid: account.sid,
        balance: (cents / 100).toFixed(2),
        currency: "USD",
      });
    },
  }),
];
