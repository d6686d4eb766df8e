// Carrier ring groups under an account: agent extensions rung together or in turn, with a ring timeout. CRUD.
import { z } from "zod";
import { type RingGroup, ringStrategies } from "../../domain/carrier-records.js";
import { getAccount } from "../../engine/accounts.js";
import { createRingGroup, deleteRingGroup, getRingGroup, updateRingGroup } from "../../engine/ring-groups.js";
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
  toMany,
  toManyInput,
} from "./document.js";
import { filterRecords, type ListFilters } from "./list-filters.js";

const collectionOf = (accountSid: string) => `${carrierBase}/accounts/${accountSid}/ring_groups`;
const collection = `${carrierBase}/accounts/:account_id/ring_groups`;
const instance = `${collection}/:id`;

export const maxRingTimeout = 600;

export const ringGroupResource = resourceSchema(
  "ring_group",
  z.object({
    name: z.string(),
    strategy: z.enum(ringStrategies),
    ring_timeout: z.number().int(),
    account_id: z.string(),
    agent_extension_ids: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);

export function renderRingGroup(group: RingGroup) {
  return resourceObject(
    "ring_group",
    group.sid,
    `${collectionOf(group.account_sid)}/${group.sid}`,
    {
      name: group.name,
      strategy: group.strategy,
      ring_timeout: group.ring_timeout,
      account_id: group.account_sid,
      agent_extension_ids: group.agent_extension_sids,
      created_at: iso8601(group.created_at),
      updated_at: iso8601(group.updated_at),
    },
    {
      account: { type: "account", id: group.account_sid },
      agent_extensions: toMany("agent_extension", group.agent_extension_sids),
    },
  );
}

const name = z.string({ error: "must be a string" }).trim().min(1, "must not be blank");
const strategy = z.enum(ringStrategies, { error: 'must be "simultaneous" or "sequential"' });
const ringTimeout = z
  .number({ error: "must be a whole number of seconds" })
  .int("must be a whole number of seconds")
  .min(1, `must be between 1 and ${maxRingTimeout} seconds`)
  .max(maxRingTimeout, `must be between 1 and ${maxRingTimeout} seconds`);
const relationships = z
  .strictObject({ agent_extensions: toManyInput("agent_extension").optional() })
  .optional();

const createBody = z.object({
  data: z.object({
    type: z.literal("ring_group"),
    attributes: z.strictObject({ name, strategy: strategy.optional(), ring_timeout: ringTimeout.optional() }),
    relationships,
  }),
});

const updateBody = z.object({
  data: z.object({
    type: z.literal("ring_group"),
    id: z.string(),
    attributes: z
      .strictObject({
        name: name.optional(),
        strategy: strategy.optional(),
        ring_timeout: ringTimeout.optional(),
      })
      .default({}),
    relationships,
  }),
});

const memberSids = (input: z.infer<typeof relationships>) => input?.agent_extensions?.data.map((d) => d.id);

const listFilters: ListFilters<RingGroup> = { equal: { "filter[strategy]": (g) => g.strategy } };

export const carrierRingGroupRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "carrier",
    summary: "Create a ring group of the account's agent extensions",
    auth: { kind: "carrier" },
    body: createBody,
    resourceType: "ring_group",
    status: 201,
    response: singleDocumentSchema(ringGroupResource),
    handle({ params, body, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      const group = createRingGroup(services.context, account.sid, {
        ...body.data.attributes,
        agent_extension_sids: memberSids(body.data.relationships),
      });
      const resource = renderRingGroup(group);
      return singleDocument(201, resource, { location: resource.links.self });
    },
  }),
  defineRoute({
    method: "GET",
    path: collection,
    surface: "carrier",
    summary: "List an account's ring groups",
    auth: { kind: "carrier" },
    query: z.strictObject({ ...pagingQuery, "filter[strategy]": strategy.optional() }),
    response: collectionDocumentSchema(ringGroupResource),
    handle({ params, query, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      return listDocument(
        collectionOf(account.sid),
        query,
        filterRecords(services.context.store.ringGroups.where("account", account.sid), query, listFilters),
        renderRingGroup,
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "carrier",
    summary: "Fetch a ring group",
    auth: { kind: "carrier" },
    response: singleDocumentSchema(ringGroupResource),
    handle({ params, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      return singleDocument(
        200,
        renderRingGroup(getRingGroup(services.context, account.sid, params.id!, request.path)),
      );
    },
  }),
  defineRoute({
    method: "PATCH",
    path: instance,
    surface: "carrier",
    summary: "Change a ring group's name, strategy, timeout or members (members are replaced as a whole)",
    auth: { kind: "carrier" },
    body: updateBody,
    resourceType: "ring_group",
    idParam: "id",
    response: singleDocumentSchema(ringGroupResource),
    handle({ params, body, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      const group = getRingGroup(services.context, account.sid, params.id!, request.path);
      const updated = updateRingGroup(services.context, group, {
        ...body.data.attributes,
        agent_extension_sids: memberSids(body.data.relationships),
      });
      return singleDocument(200, renderRingGroup(updated));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "carrier",
    summary: "Delete a ring group (its agent extensions stay)",
    auth: { kind: "carrier" },
    response: deletedDocumentSchema,
    handle({ params, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      const group = getRingGroup(services.context, account.sid, params.id!, request.path);
      deleteRingGroup(services.context, group);
      return deletedDocument("ring_group", group.sid);
    },
  }),
];
