// Admin: the webhook delivery log, every attempt at a customer's URL, filtered by call, account, kind or outcome.
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import type { DeliveryAttempt } from "../../webhooks/delivery-log.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";
import { adminPathParams } from "./path-params.js";

const kinds = [
  "voice-markup",
  "call-status",
  "recording-status",
  "transcription",
  "message-status",
  "sms-markup",
  "partial-result",
  "stream-status",
  "amd-status",
] as const;
const outcomes = ["success", "http-error", "network-error", "timeout"] as const;

const deliveryQuery = z.lazy(() =>
  z.strictObject({
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
  }),
);

const deliveryResource = z.lazy(() =>
  z.object({
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
    sent_at: z.string().describe("When the attempt was sent (sandbox clock), ISO 8601 with milliseconds"),
    status: z.number().nullable(),
    outcome: z.enum(outcomes),
    error: z.string().nullable(),
    latency_ms: z.number(),
    cookie: z.string().nullable(),
    set_cookies: z.array(z.string()),
    response_body: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
  }),
);

/** Milliseconds kept, as every other admin time: a markup fetch and the status change it caused may share a second. */
const isoMs = (ms: number) => new Date(ms).toISOString();

export const renderAttempt = (a: DeliveryAttempt): z.infer<typeof deliveryResource> => ({
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
  sent_at: isoMs(a.at),
  status: a.status,
  outcome: a.outcome,
  error: a.error,
  latency_ms: a.latencyMs,
  cookie: a.cookie,
  set_cookies: a.setCookies,
  response_body: a.responseBody,
  next_attempt_at: a.nextAttemptAt === null ? null : isoMs(a.nextAttemptAt),
});

const defaultLimit = 100;

/** The latest attempt of a delivery still in the bounded log (searched from the newest end). */
function latestAttempt(attempts: readonly DeliveryAttempt[], id: string): DeliveryAttempt | undefined {
  for (let i = attempts.length - 1; i >= 0; i--) if (attempts[i]!.id === id) return attempts[i];
  return undefined;
}

export const webhookRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/webhooks",
    surface: "admin",
    summary:
      "Webhook delivery attempts, oldest first (filters: call_sid, account_sid, message_sid, kind, status, limit)",
    auth: { kind: "admin" },
    query: deliveryQuery,
    response: z.lazy(() =>
      z.object({
        deliveries: z.array(deliveryResource),
        total: z.number(),
        evicted: z.number(),
        queued: z.number(),
        in_flight: z.number(),
        waiting_retry: z.number(),
      }),
    ),
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
    response: z.lazy(() => z.strictObject({ cleared: z.literal(true) })),
    handle({ services }) {
      services.webhooks?.clear();
      return jsonResponse(200, { cleared: true });
    },
  }),
  defineRoute({
    method: "POST",
    path: "/__sandbox/webhooks/:DeliveryId/resend",
    params: adminPathParams.delivery,
    surface: "admin",
    summary:
      "Send a logged delivery again now, as a new delivery (new idempotency token) signed with the account's current auth token; answers with the new attempt",
    auth: { kind: "admin" },
    body: z.lazy(() => z.strictObject({})),
    response: z.lazy(() => z.strictObject({ resent_from: z.string(), delivery: deliveryResource })),
    async handle({ params, request, services }) {
      const webhooks = services.webhooks;
      const original = webhooks ? latestAttempt(webhooks.deliveries, params.DeliveryId!) : undefined;
      if (!webhooks || !original) throw errors.notFound(request.path);
      const account = services.context.store.accounts.get(original.accountSid);
      if (!account) {
        throw errors.stateConflict(
          `Account ${original.accountSid} no longer exists, so there is no auth token to sign the delivery with.`,
        );
      }
      // A GET's parameters are already in the logged URL; sending them again would repeat them.
      const result = await webhooks.request({
        kind: original.kind,
        url: original.url,
        method: original.method,
        params: original.method === "GET" ? {} : { ...original.params },
        accountSid: original.accountSid,
        authToken: account.auth_token,
        callSid: original.callSid ?? undefined,
        messageSid: original.messageSid ?? undefined,
      });
      const resent = result.deliveryId ? latestAttempt(webhooks.deliveries, result.deliveryId) : undefined;
      // The log is emptied only by a reset or clear racing the request; the attempt then went unlogged.
      if (!resent)
        throw errors.stateConflict("The delivery log was cleared while the delivery was sent again.");
      return jsonResponse(200, { resent_from: original.id, delivery: renderAttempt(resent) });
    },
  }),
];
