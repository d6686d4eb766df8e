// Carrier accounts: create, list, fetch, update (including suspend), delete with its cascades.
import { z } from "zod";
import { type Account, accountStatuses } from "../../domain/account.js";
import { metadata } from "../../domain/fields.js";
import { createAccount, deleteAccount, getAccount, updateAccount } from "../../engine/accounts/accounts.js";
import { iso8601 } from "../format.js";
import { carrierBase, pagingQuery, patchAttributes, resourceObject, resourceSchema } from "./document.js";
import type { ListFilters } from "./list-filters.js";
import { carrierResourceRoutes, listIn } from "./resource-routes.js";

const collection = `${carrierBase}/accounts`;
const instance = `${collection}/:id`;

export const accountResource = z.lazy(() =>
  resourceSchema(
    "account",
    z.object({
      name: z.string(),
      status: z.enum(accountStatuses),
      default_tts_voice: z.string(),
      metadata: z.record(z.string(), z.unknown()),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
);

export function renderAccount(account: Account) {
  return resourceObject("account", account.sid, `${collection}/${account.sid}`, {
    name: account.name,
    status: account.status,
    default_tts_voice: account.default_tts_voice,
    metadata: account.metadata,
    created_at: iso8601(account.created_at),
    updated_at: iso8601(account.updated_at),
  });
}

const name = z.lazy(() => z.string({ error: "must be a string" }).trim().min(1, "must not be blank"));
const voice = z.lazy(() => z.string({ error: "must be a string" }).min(1, "must not be blank"));

const createBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("account"),
      attributes: z.strictObject({
        name,
        default_tts_voice: voice.optional(),
        metadata: metadata.optional(),
      }),
    }),
  }),
);

const updateBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("account"),
      id: z.string(),
      attributes: patchAttributes({
        name: name.optional(),
        status: z.enum(accountStatuses, { error: 'must be "active" or "suspended"' }).optional(),
        default_tts_voice: voice.optional(),
        metadata: metadata.optional(),
      }),
    }),
  }),
);

const listFilters: ListFilters<Account> = {
  indexes: { status: ["filter[status]"] },
  equal: { "filter[status]": (a) => a.status },
};

export const carrierAccountRoutes = carrierResourceRoutes({
  type: "account",
  collection,
  instance,
  schema: accountResource,
  render: renderAccount,
  find: ({ params, request, services }) => getAccount(services.context, params.id!, request.path),
  create: {
    summary: "Create an account",
    body: createBody,
    make: ({ body, services }) => createAccount(services.context, body.data.attributes),
  },
  list: {
    summary: "List the carrier's accounts",
    query: z.lazy(() =>
      z.strictObject({ ...pagingQuery, "filter[status]": z.enum(accountStatuses).optional() }),
    ),
    answer: listIn(collection, (store) => store.accounts, listFilters, renderAccount),
  },
  fetch: { summary: "Fetch an account" },
  update: {
    summary: "Update an account: name, status (active or suspended), default_tts_voice, metadata",
    body: updateBody,
    change: ({ body, services }, account) => updateAccount(services.context, account, body.data.attributes),
  },
  remove: {
    summary: "Delete an account for good: its numbers go back to the inventory, its credentials stop working",
    drop: ({ services }, account) => deleteAccount(services.context, account),
  },
});
