// Carrier agent extensions under an account: create (next free number unless given), list, fetch, update, delete.
import { z } from "zod";
import { type AgentExtension, agentStatuses } from "../../domain/carrier-records.js";
import { getAccount } from "../../engine/accounts/accounts.js";
import {
  createAgentExtension,
  deleteAgentExtension,
  getAgentExtension,
  updateAgentExtension,
} from "../../engine/accounts/agent-extensions.js";
import { iso8601 } from "../format.js";
import {
  carrierBase,
  listDocument,
  pagingQuery,
  patchAttributes,
  resourceObject,
  resourceSchema,
} from "./document.js";
import { filterRecords, type ListFilters } from "./list-filters.js";
import { carrierResourceRoutes } from "./resource-routes.js";

const collectionOf = (accountSid: string) => `${carrierBase}/accounts/${accountSid}/agent_extensions`;
const collection = `${carrierBase}/accounts/:account_id/agent_extensions`;
const instance = `${collection}/:id`;

export const agentExtensionResource = z.lazy(() =>
  resourceSchema(
    "agent_extension",
    z.object({
      agent_name: z.string(),
      extension: z.string(),
      status: z.enum(agentStatuses),
      account_id: z.string(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
);

export function renderAgentExtension(record: AgentExtension) {
  return resourceObject(
    "agent_extension",
    record.sid,
    `${collectionOf(record.account_sid)}/${record.sid}`,
    {
      agent_name: record.agent_name,
      extension: record.extension,
      status: record.status,
      account_id: record.account_sid,
      created_at: iso8601(record.created_at),
      updated_at: iso8601(record.updated_at),
    },
    { account: { type: "account", id: record.account_sid } },
  );
}

const agentName = z.lazy(() => z.string({ error: "must be a string" }).trim().min(1, "must not be blank"));
const extension = z.lazy(() =>
  z
    .string({ error: "must be a string of digits" })
    .regex(/^[1-9]\d{1,7}$/, "must be 2 to 8 digits, not starting with 0, e.g. 101"),
);
const status = z.lazy(() => z.enum(agentStatuses, { error: `must be one of ${agentStatuses.join(", ")}` }));

const createBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("agent_extension"),
      attributes: z.strictObject({
        agent_name: agentName,
        extension: extension.optional(),
        status: status.optional(),
      }),
    }),
  }),
);

const updateBody = z.lazy(() =>
  z.object({
    data: z.object({
      type: z.literal("agent_extension"),
      id: z.string(),
      attributes: patchAttributes({
        agent_name: agentName.optional(),
        extension: extension.optional(),
        status: status.optional(),
      }),
    }),
  }),
);

const listQuery = z.lazy(() =>
  z.strictObject({
    ...pagingQuery,
    "filter[status]": status.optional(),
    "filter[extension]": z.string().optional(),
  }),
);

const listFilters: ListFilters<AgentExtension> = {
  equal: { "filter[status]": (e) => e.status, "filter[extension]": (e) => e.extension },
};

export const carrierAgentExtensionRoutes = carrierResourceRoutes({
  type: "agent_extension",
  collection,
  instance,
  schema: agentExtensionResource,
  render: renderAgentExtension,
  find({ params, request, services }) {
    const account = getAccount(services.context, params.account_id!, request.path);
    return getAgentExtension(services.context, account.sid, params.id!, request.path);
  },
  create: {
    summary: "Create an agent extension (the next free number from 100 unless one is given)",
    body: createBody,
    make({ params, body, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      return createAgentExtension(services.context, account.sid, body.data.attributes);
    },
  },
  list: {
    summary: "List an account's agent extensions",
    query: listQuery,
    answer({ params, query, request, services }) {
      const account = getAccount(services.context, params.account_id!, request.path);
      const records = filterRecords(
        services.context.store.agentExtensions.where("account", account.sid),
        query,
        listFilters,
      );
      return listDocument(collectionOf(account.sid), query, records, renderAgentExtension);
    },
  },
  fetch: { summary: "Fetch an agent extension" },
  update: {
    summary: "Update an agent's name, extension or status (online, offline, busy, away, dnd)",
    body: updateBody,
    change: ({ body, services }, record) =>
      updateAgentExtension(services.context, record, body.data.attributes),
  },
  remove: {
    summary: "Delete an agent extension: it can no longer be dialled, and leaves its ring groups",
    drop: ({ services }, record) => deleteAgentExtension(services.context, record),
  },
});
