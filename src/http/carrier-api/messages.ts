// Carrier messages: every SMS and MMS with its billing. List with the spec's filters, fetch, PATCH status and price.
import { z } from "zod";
import { type Message, messageDirections, messageStatuses } from "../../domain/message.js";
import { correctMessage } from "../../engine/billing/billing-corrections.js";
import { iso8601, iso8601OrNull } from "../format.js";
import {
  carrierBase,
  dateFilter,
  numberFilter,
  pagingQuery,
  patchAttributes,
  resourceObject,
  resourceSchema,
} from "./document.js";
import type { ListFilters } from "./list-filters.js";
import { chargePrice } from "./phone-calls.js";
import { carrierResourceRoutes, findIn, listIn } from "./resource-routes.js";

const collection = `${carrierBase}/messages`;
const instance = `${collection}/:id`;

export const messageTypes = ["sms", "mms"] as const;

/** A message with media is an MMS (Twilio's MM sids), any other an SMS. */
export const messageTypeOf = (message: Message) =>
  message.num_media > 0 || message.sid.startsWith("MM") ? "mms" : "sms";

export const messageResource = z.lazy(() =>
  resourceSchema(
    "message",
    z.object({
      account_id: z.string(),
      message_type: z.enum(messageTypes),
      direction: z.enum(messageDirections),
      from: z.string(),
      to: z.string(),
      body: z.string(),
      num_segments: z.number().int(),
      num_media: z.number().int(),
      encoding: z.string(),
      status: z.enum(messageStatuses),
      error_code: z.number().int().nullable(),
      error_message: z.string().nullable(),
      price: z.string().nullable(),
      price_unit: z.string(),
      sent_at: z.string().nullable(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
);

export function renderMessage(message: Message) {
  return resourceObject(
    "message",
    message.sid,
    `${collection}/${message.sid}`,
    {
      account_id: message.account_sid,
      message_type: messageTypeOf(message),
      direction: message.direction,
      from: message.from,
      to: message.to,
      body: message.body,
      num_segments: message.num_segments,
      num_media: message.num_media,
      encoding: message.encoding,
      status: message.status,
      error_code: message.error_code,
      error_message: message.error_message,
      price: message.price,
      price_unit: message.price_unit,
      sent_at: iso8601OrNull(message.date_sent),
      created_at: iso8601(message.created_at),
      updated_at: iso8601(message.updated_at),
    },
    { account: { type: "account", id: message.account_sid } },
  );
}

/** `filter[created_at]`: a UTC date or a leading part of a timestamp ("2026", "2026-01", "2026-01-31T10"). */
const createdAtFilter = z.lazy(() =>
  z
    .string()
    .regex(
      /^\d{4}(-\d\d(-\d\d(T\d\d(:\d\d(:\d\dZ?)?)?)?)?)?$/,
      "must be a UTC date or the start of a timestamp, e.g. 2026-01-31 or 2026-01-31T10:15",
    ),
);

const listQuery = z.lazy(() =>
  z.strictObject({
    ...pagingQuery,
    "filter[account_id]": z.string().optional(),
    "filter[to]": numberFilter.optional(),
    "filter[from]": numberFilter.optional(),
    "filter[status]": z
      .enum(messageStatuses, { error: `must be one of ${messageStatuses.join(", ")}` })
      .optional(),
    "filter[message_type]": z.enum(messageTypes, { error: 'must be "sms" or "mms"' }).optional(),
    "filter[direction]": z
      .enum(messageDirections, { error: `must be one of ${messageDirections.join(", ")}` })
      .optional(),
    "filter[created_at]": createdAtFilter.optional(),
    "filter[from_date]": dateFilter.optional(),
    "filter[to_date]": dateFilter.optional(),
  }),
);

const listFilters: ListFilters<Message> = {
  indexes: {
    to: ["filter[to]"],
    from: ["filter[from]"],
    accountStatus: ["filter[account_id]", "filter[status]"],
    account: ["filter[account_id]"],
    status: ["filter[status]"],
    direction: ["filter[direction]"],
  },
  equal: {
    "filter[account_id]": (m) => m.account_sid,
    "filter[status]": (m) => m.status,
    "filter[to]": (m) => m.to,
    "filter[from]": (m) => m.from,
    "filter[message_type]": messageTypeOf,
    "filter[direction]": (m) => m.direction,
  },
  match: {
    "filter[created_at]": (m, created) => iso8601(m.created_at).startsWith(created.replace(/Z$/, "")),
  },
  createdAt: (m) => m.created_at,
};

const updateBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("message"),
      id: z.string(),
      attributes: patchAttributes({
        status: z.enum(messageStatuses, { error: `must be one of ${messageStatuses.join(", ")}` }).optional(),
        price: chargePrice.optional(),
      }),
    }),
  }),
);

export const carrierMessageRoutes = carrierResourceRoutes({
  type: "message",
  collection,
  instance,
  schema: messageResource,
  render: renderMessage,
  find: findIn((store) => store.messages),
  list: {
    summary: "List messages: filter by account, to, from, status, message type, direction and creation date",
    query: listQuery,
    answer: listIn(collection, (store) => store.messages, listFilters, renderMessage),
  },
  fetch: { summary: "Fetch a message" },
  update: {
    summary: "Correct a message's status or price (0 or negative) before reconciliation",
    body: updateBody,
    change: ({ body, services }, message) => correctMessage(services.context, message, body.data.attributes),
  },
});
