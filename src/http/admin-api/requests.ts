// Admin: the request journal, the latest API requests with status, latency, account, bodies and any injected fault.
import { z } from "zod";
import { redactSecrets } from "../journal-excerpt.js";
import type { JournalEntry } from "../request-journal.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";

const journalEntrySchema = z.lazy(() =>
  z.object({
    id: z.number().int(),
    at: z.string(),
    method: z.string(),
    path: z.string(),
    query: z.string(),
    surface: z.enum(["account", "carrier", "admin"]),
    status: z.number().int(),
    latency_ms: z.number(),
    account_sid: z.string().nullable(),
    fault: z
      .object({ id: z.string(), status: z.number().int().optional(), delay_ms: z.number().optional() })
      .nullable(),
    request_body: z
      .string()
      .nullable()
      .describe("The request body's first 2,048 characters, secret values (tokens, keys, passwords) masked"),
    response_body: z
      .string()
      .nullable()
      .describe("The answer's first 2,048 characters (null for binary answers), secret values masked"),
    error_code: z.number().int().nullable().describe("The error code of a 4xx/5xx answer, else null"),
  }),
);

/** An entry as shown: bodies with their secrets masked (the query string too). */
const shown = (entry: JournalEntry): JournalEntry => ({
  ...entry,
  query: redactSecrets(entry.query),
  request_body: entry.request_body === null ? null : redactSecrets(entry.request_body),
  response_body: entry.response_body === null ? null : redactSecrets(entry.response_body),
});

const journalQuery = z.lazy(() =>
  z.strictObject({
    method: z.string().optional(),
    path: z.string().optional().describe("Path glob; * matches anything"),
    status: z
      .string()
      .regex(/^([1-5]xx|\d{3})$/i, "must be a status such as 404 or a class such as 4xx")
      .optional(),
    account_sid: z.string().optional(),
    surface: z
      .enum(["account", "carrier", "admin"], { error: "must be account, carrier or admin" })
      .optional(),
    fault: z
      .enum(["true", "false"], { error: "must be true or false" })
      .transform((v) => v === "true")
      .optional(),
    after: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(0)
      .optional(),
    limit: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be 1 or more")
      .default(100),
  }),
);

export const requestRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/requests",
    surface: "admin",
    summary:
      "The request journal: the latest API requests, oldest first (filters: method, path, status, account_sid, surface, fault, after, limit)",
    auth: { kind: "admin" },
    query: journalQuery,
    response: z.lazy(() =>
      z.object({
        requests: z.array(journalEntrySchema),
        recorded: z.number().int().describe("Requests recorded since the start or the last clear"),
        capacity: z.number().int().describe("How many the journal keeps (--journal-limit)"),
      }),
    ),
    handle({ query, services }) {
      const journal = services.journal;
      const { surface, fault, after, ...rest } = query;
      return jsonResponse(200, {
        requests:
          journal
            ?.list({
              ...rest,
              ...(surface !== undefined ? { surface } : {}),
              ...(fault !== undefined ? { fault } : {}),
              ...(after !== undefined ? { after } : {}),
            })
            .map(shown) ?? [],
        recorded: journal?.total() ?? 0,
        capacity: journal?.capacity ?? 0,
      });
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/__sandbox/requests",
    surface: "admin",
    summary: "Empty the request journal",
    auth: { kind: "admin" },
    response: z.lazy(() => z.object({ cleared: z.literal(true) })),
    handle({ services }) {
      services.journal?.clear();
      return jsonResponse(200, { cleared: true });
    },
  }),
];
