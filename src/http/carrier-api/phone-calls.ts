// Carrier phone calls: the billing record of every call. List with filters, fetch, PATCH price.
import { z } from "zod";
import { type Call, callDirections, callStatuses } from "../../domain/call.js";
import { decimalString } from "../../domain/fields.js";
import { correctCall } from "../../engine/billing/billing-corrections.js";
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
import { carrierResourceRoutes, findIn, listIn } from "./resource-routes.js";

const collection = `${carrierBase}/phone_calls`;
const instance = `${collection}/:id`;

export const phoneCallResource = z.lazy(() =>
  resourceSchema(
    "phone_call",
    z.object({
      account_id: z.string(),
      direction: z.enum(callDirections),
      from: z.string(),
      to: z.string(),
      status: z.enum(callStatuses),
      duration: z.string().nullable(),
      price: z.string().nullable(),
      price_unit: z.string(),
      parent_call_id: z.string().nullable(),
      sip_trunk_id: z.string().nullable(),
      answered_by: z.string().nullable(),
      start_time: z.string().nullable(),
      end_time: z.string().nullable(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
);

export function renderPhoneCall(call: Call) {
  return resourceObject(
    "phone_call",
    call.sid,
    `${collection}/${call.sid}`,
    {
      account_id: call.account_sid,
      direction: call.direction,
      from: call.from,
      to: call.to,
      status: call.status,
      duration: call.duration === null ? null : String(call.duration),
      price: call.price,
      price_unit: call.price_unit,
      parent_call_id: call.parent_call_sid,
      sip_trunk_id: call.trunk_sid,
      answered_by: call.answered_by,
      start_time: iso8601OrNull(call.start_time),
      end_time: iso8601OrNull(call.end_time),
      created_at: iso8601(call.created_at),
      updated_at: iso8601(call.updated_at),
    },
    {
      account: { type: "account", id: call.account_sid },
      sip_trunk: { type: "sip_trunk", id: call.trunk_sid },
    },
  );
}

/** Spec: "a charge is represented as a negative value"; a correction may also make a call free ("0"). */
export const chargePrice = z.lazy(() =>
  decimalString.refine(
    (p) => p.startsWith("-") || /^0+(\.0+)?$/.test(p),
    'must be 0 or negative, e.g. "-0.01300": a charge is a negative price',
  ),
);

const listQuery = z.lazy(() =>
  z.strictObject({
    ...pagingQuery,
    "filter[account_id]": z.string().optional(),
    "filter[status]": z.enum(callStatuses, { error: `must be one of ${callStatuses.join(", ")}` }).optional(),
    "filter[direction]": z
      .enum(callDirections, { error: `must be one of ${callDirections.join(", ")}` })
      .optional(),
    "filter[from]": numberFilter.optional(),
    "filter[to]": numberFilter.optional(),
    "filter[sip_trunk_id]": z.string().optional(),
    "filter[from_date]": dateFilter.optional(),
    "filter[to_date]": dateFilter.optional(),
  }),
);

const listFilters: ListFilters<Call> = {
  indexes: {
    to: ["filter[to]"],
    from: ["filter[from]"],
    accountStatus: ["filter[account_id]", "filter[status]"],
    account: ["filter[account_id]"],
    status: ["filter[status]"],
    direction: ["filter[direction]"],
  },
  equal: {
    "filter[account_id]": (c) => c.account_sid,
    "filter[status]": (c) => c.status,
    "filter[direction]": (c) => c.direction,
    "filter[from]": (c) => c.from,
    "filter[to]": (c) => c.to,
    "filter[sip_trunk_id]": (c) => c.trunk_sid,
  },
  createdAt: (c) => c.created_at,
};

const updateBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("phone_call"),
      id: z.string(),
      attributes: patchAttributes({ price: chargePrice.optional() }),
    }),
  }),
);

export const carrierPhoneCallRoutes = carrierResourceRoutes({
  type: "phone_call",
  collection,
  instance,
  schema: phoneCallResource,
  render: renderPhoneCall,
  find: findIn((store) => store.calls),
  list: {
    summary: "List calls: filter by account, status, direction, from, to, trunk and creation date",
    query: listQuery,
    answer: listIn(collection, (store) => store.calls, listFilters, renderPhoneCall),
  },
  fetch: { summary: "Fetch a call's billing record" },
  update: {
    summary: "Override a call's price before reconciliation (0 or negative)",
    body: updateBody,
    change: ({ body, services }, call) => correctCall(services.context, call, body.data.attributes),
  },
});
