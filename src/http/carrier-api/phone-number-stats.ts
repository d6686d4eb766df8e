// Carrier phone number statistics: inventory counts and monthly revenue of assigned numbers for a period.
import { z } from "zod";
import { phoneNumberStats } from "../../engine/accounts/phone-number-stats.js";
import { defineRoute } from "../route.js";
import {
  carrierBase,
  resourceObject,
  resourceSchema,
  singleDocument,
  singleDocumentSchema,
} from "./document.js";

const path = `${carrierBase}/phone_numbers/stats`;

/** Longest period one request may cover, so a typo in a year cannot ask for centuries of months. */
export const maxStatsMonths = 120;

const date = z.lazy(() =>
  z
    .string()
    .regex(/^\d{4}-\d\d-\d\d$/, "must be a date such as 2026-01-31")
    .refine((v) => {
      // 2026-13-01 makes an Invalid Date, whose toISOString throws: check before asking.
      const day = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(v);
    }, "is not a real date"),
);

const query = z.lazy(() =>
  z
    .strictObject({ from_date: date.optional(), to_date: date.optional(), account_id: z.string().optional() })
    .superRefine((q, ctx) => {
      if (q.from_date && q.to_date && q.to_date < q.from_date) {
        ctx.addIssue({ code: "custom", path: ["to_date"], message: "must not be before from_date" });
      }
      if (q.from_date && q.to_date) {
        const months =
          (Number(q.to_date.slice(0, 4)) - Number(q.from_date.slice(0, 4))) * 12 +
          Number(q.to_date.slice(5, 7)) -
          Number(q.from_date.slice(5, 7));
        if (months >= maxStatsMonths) {
          ctx.addIssue({
            code: "custom",
            path: ["to_date"],
            message: `must be within ${maxStatsMonths} months of from_date`,
          });
        }
      }
    }),
);

const count = z.lazy(() => z.record(z.string(), z.number().int()));

export const phoneNumberStatsResource = z.lazy(() =>
  resourceSchema(
    "phone_number_stats",
    z.object({
      from_date: z.string(),
      to_date: z.string(),
      account_id: z.string().nullable(),
      total: z.number().int(),
      by_status: count,
      by_visibility: count,
      by_country: count,
      monthly_revenue: z.array(
        z.object({ month: z.string(), assigned_numbers: z.number().int(), revenue: z.string() }),
      ),
      revenue: z.string(),
      currency: z.string(),
    }),
  ),
);

export const carrierPhoneNumberStatsRoutes = [
  defineRoute({
    method: "GET",
    path,
    surface: "carrier",
    summary: "Counts by status, visibility and country, and monthly revenue from assigned numbers",
    auth: { kind: "carrier" },
    query,
    response: z.lazy(() => singleDocumentSchema(phoneNumberStatsResource)),
    handle({ query: q, request, services }) {
      const stats = phoneNumberStats(services.context, {
        fromDate: q.from_date,
        toDate: q.to_date,
        accountSid: q.account_id,
      });
      // One statistics resource per question asked: its id names the period and the account.
      const id = `${stats.from_date}..${stats.to_date}${stats.account_id ? `:${stats.account_id}` : ""}`;
      const self = request.query ? `${path}?${request.query}` : path;
      return singleDocument(200, resourceObject("phone_number_stats", id, self, { ...stats }));
    },
  }),
];
