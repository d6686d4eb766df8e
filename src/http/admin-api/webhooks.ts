// Admin: the webhook delivery log, every attempt at a customer's URL, filtered by call, account, kind or outcome.
import { z } from "zod";
import type { DeliveryAttempt } from "../../webhooks/delivery-log.js";
import { iso8601 } from "../format.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";

const kinds = [
  "voice-markup",
  "call-status",
  "recording-status",
  "transcription",
  "message-status",
  "sms-markup",
] as const;
const outcomes = ["success", "http-error", "network-error", "timeout"] as const;

const deliveryQuery = z.strictObject({
  call_sid: z.string().optional(),
  account_sid: z.string().optional(),
  message_sid: z.string().optional(),
  kind: z.enum(kinds, { error: `must be one of ${kinds.join(", ")}` }).optional(),
  status: z.enum(outcomes, { error: `must be one of ${outcomes.join(", ")}` }).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, { error: "must be a whole number" })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: "must be at least 1" }))
    .optional(),
});

const deliveryResource = z.object({
  id: z.string(),
  attempt: z.number(),
  kind: z.enum(kinds),
  method: z.enum(["GET", "POST"]),
  url: z.string(),
  params: z.record(z.string(), z.string()),
  signature: z.string(),
  idempotency_token: z.string(),
  account_sid: z.string(),
  call_sid: z.string().nullable(),
  message_sid: z.string().nullable(),
  ordering_key: z.string().nullable(),
  sent_at: z.string(),
  status: z.number().nullable(),
  outcome: z.enum(outcomes),
  error: z.string().nullable(),
  latency_ms: z.number(),
  response_body: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});

const renderAttempt = (a: DeliveryAttempt): z.infer<typeof deliveryResource> => ({
  id: a.id,
  attempt: a.attempt,
  kind: a.kind,
  method: a.method,
  url: a.url,
  params: { ...a.params },
  signature: a.signature,
  idempotency_token: a.idempotencyToken,
  account_sid: a.accountSid,
  call_sid: a.callSid,
  message_sid: a.messageSid,
  ordering_key: a.orderingKey,
  sent_at: iso8601(a.at),
  status: a.status,
  outcome: a.outcome,
  error: a.error,
  latency_ms: a.latencyMs,
  response_body: a.responseBody,
  next_attempt_at: a.nextAttemptAt === null ? null : iso8601(a.nextAttemptAt),
});

const defaultLimit = 100;

export const webhookRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/webhooks",
    surface: "admin",
    summary:
      "Webhook delivery attempts, oldest first (filters: call_sid, account_sid, message_sid, kind, status, limit)",
    auth: { kind: "admin" },
    query: deliveryQuery,
    response: z.object({
      deliveries: z.array(deliveryResource),
      total: z.number(),
      evicted: z.number(),
      queued: z.number(),
      in_flight: z.number(),
      waiting_retry: z.number(),
    }),
    handle({ query, services }) {
      const webhooks = services.webhooks;
      const matches = webhooks
        ? webhooks.list({
            callSid: query.call_sid,
            accountSid: query.account_sid,
            messageSid: query.message_sid,
            kind: query.kind,
            outcome: query.status,
          })
        : [];
      const limit = query.limit ?? defaultLimit;
      const stats = webhooks?.stats();
      return jsonResponse(200, {
        deliveries: matches.slice(Math.max(0, matches.length - limit)).map(renderAttempt),
        total: matches.length,
        evicted: webhooks?.evicted ?? 0,
        queued: stats?.queued ?? 0,
        in_flight: stats?.inFlight ?? 0,
        waiting_retry: stats?.waitingRetry ?? 0,
      });
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/__sandbox/webhooks",
    surface: "admin",
    summary: "Empty the webhook delivery log and drop queued deliveries and pending retries",
    auth: { kind: "admin" },
    response: z.strictObject({ cleared: z.literal(true) }),
    handle({ services }) {
      services.webhooks?.clear();
      return jsonResponse(200, { cleared: true });
    },
  }),
];
