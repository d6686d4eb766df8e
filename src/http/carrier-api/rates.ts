// Carrier rates: the price sheet for voice minutes, SMS segments and TTS characters by destination prefix.
import { z } from "zod";
import { decimalString, isoCountry } from "../../domain/fields.js";
import { type Rate, rateCategories, rateUnits } from "../../domain/rate.js";
import { createRate, deleteRate, getRate, updateRate } from "../../engine/billing/rates.js";
import { iso8601 } from "../format.js";
import { carrierBase, pagingQuery, patchAttributes, resourceObject, resourceSchema } from "./document.js";
import type { ListFilters } from "./list-filters.js";
import { carrierResourceRoutes, listIn } from "./resource-routes.js";

const collection = `${carrierBase}/rates`;
const instance = `${collection}/:id`;

export const rateResource = z.lazy(() =>
  resourceSchema(
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
  ),
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

const category = z.lazy(() =>
  z.enum(rateCategories, { error: `must be one of ${rateCategories.join(", ")}` }),
);
const prefix = z.lazy(() =>
  z
    .string({ error: "must be a string" })
    .regex(/^\+\d{1,15}$/, 'must be "+" and the leading digits of the numbers it prices, e.g. "+1415"'),
);
const price = z.lazy(() => decimalString.refine((p) => !p.startsWith("-"), "must not be negative"));
const currency = z.lazy(() => z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as USD"));

const createBody = z.lazy(() =>
  z.object({
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
  }),
);

const updateBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("rate"),
      id: z.string(),
      attributes: patchAttributes({
        category: category.optional(),
        country: isoCountry.optional(),
        prefix: prefix.optional(),
        price: price.optional(),
        currency: currency.optional(),
      }),
    }),
  }),
);

const listQuery = z.lazy(() =>
  z.strictObject({
    ...pagingQuery,
    "filter[category]": category.optional(),
    "filter[country]": isoCountry.optional(),
    "filter[prefix]": z.string().optional(),
  }),
);

const listFilters: ListFilters<Rate> = {
  indexes: { category: ["filter[category]"] },
  equal: { "filter[category]": (r) => r.category, "filter[country]": (r) => r.country },
  // An unencoded "+" arrives as a space (see `numberFilter`).
  match: { "filter[prefix]": (r, prefix) => r.prefix === prefix.replace(/^ (?=\d)/, "+") },
};

export const carrierRateRoutes = carrierResourceRoutes({
  type: "rate",
  collection,
  instance,
  schema: rateResource,
  render: renderRate,
  find: ({ params, request, services }) => getRate(services.context, params.id!, request.path),
  create: {
    summary: "Add a rate: category, country, prefix, price per unit (minute, segment or character)",
    body: createBody,
    make: ({ body, services }) => createRate(services.context, body.data.attributes),
  },
  list: {
    summary: "List rates, with filters",
    query: listQuery,
    answer: listIn(collection, (store) => store.rates, listFilters, renderRate),
  },
  fetch: { summary: "Fetch a rate" },
  update: {
    summary: "Change a rate",
    body: updateBody,
    change: ({ body, services }, rate) => updateRate(services.context, rate, body.data.attributes),
  },
  remove: {
    summary: "Remove a rate; usage it priced keeps its price",
    drop: ({ services }, rate) => deleteRate(services.context, rate),
  },
});
