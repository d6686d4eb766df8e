// Carrier ring groups under an account: agent extensions rung together or in turn, with a ring timeout. CRUD.
import { z } from "zod";
import { type RingGroup, ringStrategies } from "../../domain/carrier-records.js";
import { getAccount } from "../../engine/accounts/accounts.js";
import {
  createRingGroup,
  deleteRingGroup,
  getRingGroup,
  updateRingGroup,
} from "../../engine/accounts/ring-groups.js";
import { iso8601 } from "../format.js";
import {
  carrierBase,
  listDocument,
  pagingQuery,
  patchAttributes,
  resourceObject,
  resourceSchema,
  toMany,
  toManyInput,
} from "./document.js";
import { filterRecords, type ListFilters } from "./list-filters.js";
import { carrierResourceRoutes } from "./resource-routes.js";

const collectionOf = (accountSid: string) => `${carrierBase}/accounts/${accountSid}/ring_groups`;
const collection = `${carrierBase}/accounts/:account_id/ring_groups`;
const instance = `${collection}/:id`;

export const maxRingTimeout = 600;

export const ringGroupResource = z.lazy(() =>
  resourceSchema(
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
  ),
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

const name = z.lazy(() => z.string({ error: "must be a string" }).trim().min(1, "must not be blank"));
const strategy = z.lazy(() => z.enum(ringStrategies, { error: 'must be "simultaneous" or "sequential"' }));
const ringTimeout = z.lazy(() =>
  z
    .number({ error: "must be a whole number of seconds" })
    .int("must be a whole number of seconds")
    .min(1, `must be between 1 and ${maxRingTimeout} seconds`)
    .max(maxRingTimeout, `must be between 1 and ${maxRingTimeout} seconds`),
);
const relationships = z.lazy(() =>
  z.strictObject({ agent_extensions: toManyInput("agent_extension").optional() }).optional(),
);

const createBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("ring_group"),
      attributes: z.strictObject({
        name,
        strategy: strategy.optional(),
        ring_timeout: ringTimeout.optional(),
      }),
      relationships,
    }),
  }),
);

const updateBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("ring_group"),
      id: z.string(),
      attributes: patchAttributes({
        name: name.optional(),
        strategy: strategy.optional(),
        ring_timeout: ringTimeout.optional(),
      }),
      relationships,
    }),
  }),
);

const memberSids = (input: z.infer<typeof relationships>) => input?.agent_extensions?.data.map((d) => d.id);

const listFilters: ListFilters<RingGroup> = { equal: { "filter[strategy]": (g) => g.strategy } };

export const carrierRingGroupRoutes = carrierResourceRoutes({
  type: "ring_group",
  collection,
  instance,
  schema: ringGroupResource,
  render: renderRingGroup,
  find({ params, request, services }) {
    const account = getAccount(services.context, params.account_id!, request.path);
    return getRingGroup(services.context, account.sid, params.id!, request.path);
  },
  create: {
    summary: "Create a ring group of the account's agent extensions",
    body: createBody,
    make({ params, body, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      return createRingGroup(services.context, account.sid, {
        ...body.data.attributes,
        agent_extension_sids: memberSids(body.data.relationships),
      });
    },
  },
  list: {
    summary: "List an account's ring groups",
    query: z.lazy(() => z.strictObject({ ...pagingQuery, "filter[strategy]": strategy.optional() })),
    answer({ params, query, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      return listDocument(
        collectionOf(account.sid),
        query,
        filterRecords(services.context.store.ringGroups.where("account", account.sid), query, listFilters),
        renderRingGroup,
      );
    },
  },
  fetch: { summary: "Fetch a ring group" },
  update: {
    summary: "Change a ring group's name, strategy, timeout or members (members are replaced as a whole)",
    body: updateBody,
    change: ({ body, services }, group) =>
      updateRingGroup(services.context, group, {
        ...body.data.attributes,
        agent_extension_sids: memberSids(body.data.relationships),
      }),
  },
  remove: {
    summary: "Delete a ring group (its agent extensions stay)",
    drop: ({ services }, group) => deleteRingGroup(services.context, group),
  },
});
