// Carrier accounts: create, list, fetch, update (including suspend), delete with its cascades.
import { z } from "zod";
import { type Account, accountStatuses } from "../../domain/account.js";
import { metadata } from "../../domain/fields.js";
import { createAccount, deleteAccount, getAccount, updateAccount } from "../../engine/accounts.js";
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

const collection = `${carrierBase}/accounts`;
const instance = `${collection}/:id`;

export const accountResource = resourceSchema(
  "account",
  z.object({
    name: z.string(),
    status: z.enum(accountStatuses),
    default_tts_voice: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    updated_at: z.string(),
  }),
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

const name = z.string({ error: "must be a string" }).trim().min(1, "must not be blank");
const voice = z.string({ error: "must be a string" }).min(1, "must not be blank");

const createBody = z.object({
  data: z.object({
    type: z.literal("account"),
    attributes: z.strictObject({ name, default_tts_voice: voice.optional(), metadata: metadata.optional() }),
  }),
});

const updateBody = z.object({
  data: z.object({
    type: z.literal("account"),
    id: z.string(),
    attributes: z.strictObject({
      name: name.optional(),
      status: z.enum(accountStatuses, { error: 'must be "active" or "suspended"' }).optional(),
      default_tts_voice: voice.optional(),
      metadata: metadata.optional(),
    }),
  }),
});

const listFilters: ListFilters<Account> = {
  indexes: { status: ["filter[status]"] },
  equal: { "filter[status]": (a) => a.status },
};

export const carrierAccountRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "carrier",
    summary: "Create an account",
    auth: { kind: "carrier" },
    body: createBody,
    resourceType: "account",
    status: 201,
    response: singleDocumentSchema(accountResource),
    handle({ body, services }) {
      const account = createAccount(services.context, body.data.attributes);
      const resource = renderAccount(account);
      return singleDocument(201, resource, { location: resource.links.self });
    },
  }),
  defineRoute({
    method: "GET",
    path: collection,
    surface: "carrier",
    summary: "List the carrier's accounts",
    auth: { kind: "carrier" },
    response: collectionDocumentSchema(accountResource),
    query: z.strictObject({ ...pagingQuery, "filter[status]": z.enum(accountStatuses).optional() }),
    handle({ query, services }) {
      const records = listPage(services.context.store.accounts, query, listFilters);
      return listDocument(collection, query, records, renderAccount);
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "carrier",
    summary: "Fetch an account",
    auth: { kind: "carrier" },
    response: singleDocumentSchema(accountResource),
    handle({ params, request, services }) {
      return singleDocument(200, renderAccount(getAccount(services.context, params.id!, request.path)));
    },
  }),
  defineRoute({
    method: "PATCH",
    path: instance,
    surface: "carrier",
    summary: "Update an account: name, status (active or suspended), default_tts_voice, metadata",
    auth: { kind: "carrier" },
    body: updateBody,
    resourceType: "account",
    idParam: "id",
    response: singleDocumentSchema(accountResource),
    handle({ params, body, request, services }) {
      const account = getAccount(services.context, params.id!, request.path);
      return singleDocument(
        200,
        renderAccount(updateAccount(services.context, account, body.data.attributes)),
      );
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "carrier",
    summary: "Delete an account for good: its numbers go back to the inventory, its credentials stop working",
    auth: { kind: "carrier" },
    response: deletedDocumentSchema,
    handle({ params, request, services }) {
      const account = getAccount(services.context, params.id!, request.path);
      deleteAccount(services.context, account);
      return deletedDocument("account", account.sid);
    },
  }),
];
