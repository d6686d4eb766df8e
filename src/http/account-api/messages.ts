// Messages: send SMS/MMS, list and fetch them, redact or cancel them, and delete finished ones.
import { z } from "zod";
import { ownedBy } from "../../domain/found.js";
import { type Message, messageDirections, messageStatuses } from "../../domain/message.js";
import { messageRecipient, messageSender } from "../../domain/message-address.js";
import {
  type ApiMessage,
  deleteMessage,
  submitMessage,
  updateMessage,
} from "../../engine/messaging/messages.js";
import { sendTestMessage } from "../../engine/test-credentials/test-credentials.js";
import { rfc2822, rfc2822OrNull } from "../format.js";
import { noContent, twilioJson, twilioRow } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { dateFilter, dateFilterQuery } from "./date-filters.js";
import { formMethod, formUrl } from "./form-fields.js";
import { listEnvelope, listSchema, pagingQuery, walkListPage } from "./paging.js";
import { equals, queryFilters } from "./query-filters.js";

const collection = `${accountBase}/Messages`;
const instance = `${collection}/:MessageSid`;

/** Twilio's message resource (schema `api.v2010.account.message`). */
export const messageResource = z.lazy(() =>
  z.object({
    body: z.string(),
    num_segments: z.string(),
    direction: z.enum(messageDirections),
    from: z.string(),
    to: z.string(),
    date_updated: z.string(),
    price: z.string().nullable(),
    error_message: z.string().nullable(),
    uri: z.string(),
    account_sid: z.string(),
    num_media: z.string(),
    status: z.enum(messageStatuses),
    messaging_service_sid: z.string().nullable(),
    sid: z.string(),
    date_sent: z.string().nullable(),
    date_created: z.string(),
    error_code: z.number().int().nullable(),
    price_unit: z.string(),
    api_version: z.string(),
    subresource_uris: z.record(z.string(), z.string()),
  }),
);
export type MessageResource = z.infer<typeof messageResource>;

export function renderMessage(message: Message): MessageResource {
  const uri = accountPath(message.account_sid, `Messages/${message.sid}.json`);
  return {
    body: message.body,
    num_segments: String(message.num_segments),
    direction: message.direction,
    from: message.from,
    to: message.to,
    date_updated: rfc2822(message.updated_at),
    price: message.price,
    error_message: message.error_message,
    uri,
    account_sid: message.account_sid,
    num_media: String(message.num_media),
    status: message.status,
    messaging_service_sid: message.messaging_service_sid,
    sid: message.sid,
    date_sent: rfc2822OrNull(message.date_sent),
    date_created: rfc2822(message.created_at),
    error_code: message.error_code,
    price_unit: message.price_unit,
    api_version: apiVersion,
    // Twilio also lists feedback, which is not served here.
    subresource_uris: {
      media: accountPath(message.account_sid, `Messages/${message.sid}/Media.json`),
    },
  };
}

const mediaUrl = z.lazy(() =>
  z.string().refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http or https URL"),
);

const createParams = z.lazy(() =>
  z.object({
    To: messageRecipient,
    From: messageSender.optional(),
    MessagingServiceSid: z
      .string()
      .regex(/^MG[0-9a-fA-F]{32}$/, "must be MG followed by 32 hex digits")
      .optional(),
    Body: z.string().max(1600, "must be at most 1600 characters").optional(),
    MediaUrl: z
      .union([
        mediaUrl.transform((value) => [value]),
        z.array(mediaUrl).max(10, "at most 10 MediaUrl values"),
      ])
      .optional(),
    StatusCallback: formUrl.optional(),
    StatusCallbackMethod: formMethod.optional(),
    ScheduleType: z.enum(["fixed"], { error: "must be fixed" }).optional(),
    SendAt: z.iso
      .datetime({ error: "must be an ISO 8601 date-time such as 2026-01-02T10:00:00Z" })
      .optional(),
    ContentSid: z
      .string()
      .regex(/^HX[0-9a-fA-F]{32}$/, "must be HX followed by 32 hex digits")
      .optional(),
    ContentVariables: z
      .string()
      .refine((value) => {
        try {
          const parsed: unknown = JSON.parse(value);
          return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
        } catch {
          return false;
        }
      }, "must be a JSON object of placeholder values")
      .optional(),
    ValidityPeriod: z.coerce
      .number({ error: "must be a whole number of seconds" })
      .int()
      .min(1, "must be between 1 and 36000")
      .max(36_000, "must be between 1 and 36000")
      .optional(),
  }),
);

const messageInput = (params: Record<string, string>, body: z.output<typeof createParams>): ApiMessage => ({
  accountSid: params.AccountSid!,
  from: body.From ?? null,
  messagingServiceSid: body.MessagingServiceSid ?? null,
  to: body.To,
  body: body.Body ?? "",
  mediaUrls: body.MediaUrl ?? [],
  statusCallback: body.StatusCallback ?? null,
  statusCallbackMethod: body.StatusCallbackMethod,
  scheduleType: body.ScheduleType ?? null,
  sendAt: body.SendAt ? Date.parse(body.SendAt) : null,
  contentSid: body.ContentSid ?? null,
});

const updateParams = z.lazy(() =>
  z.object({
    Body: z.literal("", { error: 'must be an empty string: Body="" redacts the message' }).optional(),
    Status: z.enum(["canceled"], { error: "must be canceled" }).optional(),
  }),
);

/** The indexes a message list walks, most selective first; the DateSent filters are tested along the walk. */
const messageListIndexes = { to: ["To"], from: ["From"], account: ["AccountSid"] };

const listQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    To: z.string().optional(),
    From: z.string().optional(),
    ...dateFilterQuery("DateSent"),
  }),
);

const findMessage = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.messages.get(params.MessageSid!), params.AccountSid!, path);

export const messageRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "account",
    summary: "Send an SMS or MMS (queued, accepted through a Messaging Service, or scheduled with SendAt)",
    auth: { kind: "account", scope: "messages_write" },
    body: createParams,
    errorCodes: {
      To: 21211,
      From: 21212,
      Body: 21617,
      MediaUrl: 21620,
      SendAt: 35114,
      ScheduleType: 35111,
      ContentSid: 21655,
      ContentVariables: 21656,
    },
    missingCodes: { To: 21604 },
    status: 201,
    response: messageResource,
    handle({ params, body, services }) {
      const message = submitMessage(services.context, messageInput(params, body));
      services.calls.messages.start(message);
      return twilioJson(201, renderMessage(message));
    },
    // Twilio test credentials: magic From and To numbers decide; nothing is sent or kept.
    testCredentials({ params, body, services }) {
      return twilioJson(201, renderMessage(sendTestMessage(services.context, messageInput(params, body))));
    },
  }),
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account's messages, newest first",
    auth: { kind: "account", scope: "messages_read" },
    query: listQuery,
    response: z.lazy(() => listSchema("messages", messageResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      const given = queryFilters<Message>(query, { To: equals((m) => m.to), From: equals((m) => m.from) });
      const sent = dateFilter(query, "DateSent");
      const records = walkListPage(
        services.context.store.messages,
        messageListIndexes,
        { AccountSid: accountSid, To: query.To, From: query.From },
        (m) => m.account_sid === accountSid && given.matches(m) && sent.matches(m.date_sent),
        query,
      );
      return twilioJson(
        200,
        listEnvelope({
          key: "messages",
          path: accountPath(accountSid, "Messages.json"),
          filters: [...given.echo, ...sent.echo],
          page: query,
          records,
          render: renderMessage,
          sidOf: (m) => m.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary: "Fetch a message",
    auth: { kind: "account", scope: "messages_read" },
    response: messageResource,
    handle({ params, request, services }) {
      return twilioRow(200, renderMessage, findMessage(services, params, request.path));
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: 'Redact a message (Body="") or cancel a scheduled one (Status=canceled)',
    auth: { kind: "account", scope: "messages_write" },
    body: updateParams,
    response: messageResource,
    handle({ params, body, request, services }) {
      const updated = updateMessage(services.context, findMessage(services, params, request.path), {
        body: body.Body,
        status: body.Status,
      });
      return twilioJson(200, renderMessage(updated));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "account",
    summary: "Delete a finished message",
    auth: { kind: "account", scope: "messages_write" },
    status: 204,
    handle({ params, request, services }) {
      deleteMessage(services.context, findMessage(services, params, request.path));
      return noContent();
    },
  }),
];
