// Carrier rates: the price sheet for voice minutes, SMS segments and TTS characters by destination prefix. CRUD.
import { z } from "zod";
import { decimalString, isoCountry } from "../../domain/fields.js";
import { type Rate, rateCategories, rateUnits } from "../../domain/rate.js";
import { createRate, deleteRate, getRate, updateRate } from "../../engine/rates.js";
import { iso8601 } from "../format.js";
import { defineRoute } from "../route.js";
import {
  carrierBase,
  collectionDocumentSchema,
  deletedDocument,
  deletedDocumentSchema,
  listDocument,
  pagingQuery,
  resourceObject,
  resourceSchema,
  singleDocument,
  singleDocumentSchema,
} from "./document.js";
import { type ListFilters, listPage } from "./list-filters.js";

const collection = `${carrierBase}/rates`;
const instance = `${collection}/:id`;

export const rateResource = resourceSchema(
  "rate",
  z.object({
    category: z.enum(rateCategories),
    country: z.string(),
    prefix: z.string(),
    price: z.string(),
    currency: z.string(),
    unit: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);

export function renderRate(rate: Rate) {
  return resourceObject("rate", rate.sid, `${collection}/${rate.sid}`, {
    category: rate.category,
    country: rate.country,
    prefix: rate.prefix,
    price: rate.price,
    currency: rate.currency,
    unit: rateUnits[rate.category],
    created_at: iso8601(rate.created_at),
    updated_at: iso8601(rate.updated_at),
  });
}

const category = z.enum(rateCategories, { error: 'must be "voice", "sms" or "tts"' });
const prefix = z
  .string({ error: "must be a string" })
  .regex(/^\+\d{1,15}$/, 'must be "+" and the leading digits of the numbers it prices, e.g. "+1415"');
const price = decimalString.refine((p) => !p.startsWith("-"), "must not be negative");
const currency = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as USD");

const createBody = z.object({
  data: z.object({
    type: z.literal("rate"),
    attributes: z.strictObject({
      category,
      country: isoCountry,
      prefix,
      price,
      currency: currency.optional(),
    }),
  }),
});

const updateBody = z.object({
  data: z.object({
    type: z.literal("rate"),
    id: z.string(),
    attributes: z.strictObject({
      category: category.optional(),
      country: isoCountry.optional(),
      prefix: prefix.optional(),
      price: price.optional(),
      currency: currency.optional(),
    }),
  }),
});

const listQuery = z.strictObject({
  ...pagingQuery,
  "filter[category]": category.optional(),
  "filter[country]": isoCountry.optional(),
  "filter[prefix]": z.string().optional(),
});

const listFilters: ListFilters<Rate> = {
  indexes: { category: ["filter[category]"] },
  equal: { "filter[category]": (r) => r.category, "filter[country]": (r) => r.country },
  // An unencoded "+" arrives as a space (see `numberFilter`).
  match: { "filter[prefix]": (r, prefix) => r.prefix === prefix.replace(/^ (?=\d)/, "+") },
};

export const carrierRateRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "carrier",
    summary: "Add a rate: category, country, prefix, price per unit (minute, segment or character)",
    auth: { kind: "carrier" },
    body: createBody,
    resourceType: "rate",
    status: 201,
    response: singleDocumentSchema(rateResource),
    handle({ body, services }) {
      const resource = renderRate(createRate(services.context, body.data.attributes));
      return singleDocument(201, resource, { location: resource.links.self });
    },
  }),
  defineRoute({
    method: "GET",
    path: collection,
    surface: "carrier",
    summary: "List rates, with filters",
    auth: { kind: "carrier" },
    query: listQuery,
    response: collectionDocumentSchema(rateResource),
    handle({ query, services }) {
      const records = listPage(services.context.store.rates, query, listFilters);
      return listDocument(collection, query, records, renderRate);
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "carrier",
    summary: "Fetch a rate",
    auth: { kind: "carrier" },
    response: singleDocumentSchema(rateResource),
    handle({ params, request, services }) {
      return singleDocument(200, renderRate(getRate(services.context, params.id!, request.path)));
    },
  }),
  defineRoute({
    method: "PATCH",
    path: instance,
    surface: "carrier",
    summary: "Change a rate",
    auth: { kind: "carrier" },
    body: updateBody,
    resourceType: "rate",
    idParam: "id",
    response: singleDocumentSchema(rateResource),
    handle({ params, body, request, services }) {
      const rate = getRate(services.context, params.id!, request.path);
      return singleDocument(200, renderRate(updateRate(services.context, rate, body.data.attributes)));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "carrier",
    summary: "Remove a rate; usage it priced keeps its price",
    auth: { kind: "carrier" },
    response: deletedDocumentSchema,
    handle({ params, request, services }) {
      const rate = getRate(services.context, params.id!, request.path);
      deleteRate(services.context, rate);
      return deletedDocument("rate", rate.sid);
    },
  }),
];
