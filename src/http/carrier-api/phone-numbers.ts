// Carrier phone numbers: the inventory. Create, list with filters, fetch, update, delete (release or remove).
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { decimalString, e164, isoCountry, metadata } from "../../domain/fields.js";
import {
  numberTypes,
  type PhoneNumber,
  phoneNumberStatuses,
  visibilities,
} from "../../domain/phone-number.js";
import {
  createPhoneNumber,
  releaseNumber,
  removePhoneNumber,
  updatePhoneNumber,
} from "../../engine/accounts/phone-numbers.js";
import { iso8601 } from "../format.js";
import { carrierBase, pagingQuery, patchAttributes, resourceObject, resourceSchema } from "./document.js";
import type { ListFilters } from "./list-filters.js";
import { carrierResourceRoutes, findIn, listIn } from "./resource-routes.js";

const collection = `${carrierBase}/phone_numbers`;
const instance = `${collection}/:id`;

export const phoneNumberResource = z.lazy(() =>
  resourceSchema(
    "phone_number",
    z.object({
      number: z.string(),
      number_type: z.enum(numberTypes),
      visibility: z.enum(visibilities),
      country: z.string(),
      price: z.string(),
      region: z.string().nullable(),
      locality: z.string().nullable(),
      rate_center: z.string().nullable(),
      lata: z.string().nullable(),
      postal_code: z.string().nullable(),
      latitude: z.number().nullable(),
      longitude: z.number().nullable(),
      metadata: z.record(z.string(), z.unknown()),
      status: z.enum(phoneNumberStatuses),
      account_id: z.string().nullable(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
);

export function renderPhoneNumber(number: PhoneNumber) {
  return resourceObject(
    "phone_number",
    number.sid,
    `${collection}/${number.sid}`,
    {
      number: number.number,
      number_type: number.number_type,
      visibility: number.visibility,
      country: number.country,
      price: number.price,
      region: number.region,
      locality: number.locality,
      rate_center: number.rate_center,
      lata: number.lata,
      postal_code: number.postal_code,
      latitude: number.latitude,
      longitude: number.longitude,
      metadata: number.metadata,
      status: number.status,
      account_id: number.account_sid,
      created_at: iso8601(number.created_at),
      updated_at: iso8601(number.updated_at),
    },
    { account: { type: "account", id: number.account_sid } },
  );
}

const editable = {
  number_type: z.enum(numberTypes, { error: `must be one of ${numberTypes.join(", ")}` }).optional(),
  visibility: z.enum(visibilities, { error: 'must be "public" or "private"' }).optional(),
  country: isoCountry.optional(),
  price: decimalString.refine((p) => !p.startsWith("-"), "must not be negative").optional(),
  region: z.string().nullable().optional(),
  locality: z.string().nullable().optional(),
  rate_center: z.string().nullable().optional(),
  lata: z.string().nullable().optional(),
  postal_code: z.string().nullable().optional(),
  latitude: z.number().min(-90).max(90).nullable().optional(),
  longitude: z.number().min(-180).max(180).nullable().optional(),
  metadata: metadata.optional(),
};

const createBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("phone_number"),
      attributes: z.strictObject({ number: e164, ...editable }),
    }),
  }),
);

const updateBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("phone_number"),
      id: z.string(),
      attributes: patchAttributes({ number: e164.optional(), ...editable }),
    }),
  }),
);

const listQuery = z.lazy(() =>
  z.strictObject({
    ...pagingQuery,
    "filter[visibility]": z.enum(visibilities).optional(),
    "filter[country]": isoCountry.optional(),
    "filter[number]": z.string().optional(),
    "filter[status]": z.enum(phoneNumberStatuses).optional(),
    "filter[account_id]": z.string().optional(),
    "filter[number_type]": z.enum(numberTypes).optional(),
  }),
);

const listFilters: ListFilters<PhoneNumber> = {
  indexes: {
    account: ["filter[account_id]"],
    country: ["filter[country]"],
    status: ["filter[status]"],
  },
  equal: {
    "filter[account_id]": (n) => n.account_sid,
    "filter[country]": (n) => n.country,
    "filter[status]": (n) => n.status,
    "filter[visibility]": (n) => n.visibility,
    "filter[number_type]": (n) => n.number_type,
  },
  // `filter[number]` matches any part of the number, so a caller can look numbers up by a few digits.
  match: { "filter[number]": (n, digits) => n.number.includes(digits) },
};

export const carrierPhoneNumberRoutes = carrierResourceRoutes({
  type: "phone_number",
  collection,
  instance,
  schema: phoneNumberResource,
  render: renderPhoneNumber,
  find: findIn((store) => store.phoneNumbers),
  create: {
    summary: "Add a number to the carrier inventory",
    body: createBody,
    make: ({ body, services }) => createPhoneNumber(services.context, body.data.attributes),
  },
  list: {
    summary: "List the inventory, with filters",
    query: listQuery,
    answer: listIn(collection, (store) => store.phoneNumbers, listFilters, renderPhoneNumber),
  },
  fetch: { summary: "Fetch a number" },
  update: {
    summary: "Update a number's price, visibility, metadata and location attributes",
    body: updateBody,
    change({ body, services }, number) {
      const { number: e164Value, ...changes } = body.data.attributes;
      if (e164Value !== undefined && e164Value !== number.number) {
        throw errors.invalidAttribute(
          "/data/attributes/number",
          "number cannot be changed; delete this number and create the new one.",
        );
      }
      return updatePhoneNumber(services.context, number, changes);
    },
  },
  remove: {
    summary: "Release an assigned number back to the inventory, or remove an unassigned one from it",
    keep: ({ services }, number) =>
      number.status === "assigned" ? releaseNumber(services.context, number) : undefined,
    drop: ({ services }, number) => removePhoneNumber(services.context, number),
  },
});
