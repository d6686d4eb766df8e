// AgentExtensions: the account API's view of the carrier's agent extensions; agents' status can be set here.
import { z } from "zod";
import { type AgentExtension, agentStatuses } from "../../domain/carrier-records.js";
import { ownedBy } from "../../domain/found.js";
import { updateAgentExtension } from "../../engine/accounts/agent-extensions.js";
import { rfc2822 } from "../format.js";
import { twilioJson, twilioRow } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath } from "./base.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";
import { equals, queryFilters } from "./query-filters.js";

const collection = `${accountBase}/AgentExtensions`;
const instance = `${collection}/:Sid`;

export const agentExtensionResource = z.lazy(() =>
  z.object({
    sid: z.string(),
    account_sid: z.string(),
    agent_name: z.string(),
    extension: z.string(),
    status: z.enum(agentStatuses),
    date_created: z.string(),
    date_updated: z.string(),
    uri: z.string(),
  }),
);

export function renderAgentExtension(record: AgentExtension): z.infer<typeof agentExtensionResource> {
  return {
    sid: record.sid,
    account_sid: record.account_sid,
    agent_name: record.agent_name,
    extension: record.extension,
    status: record.status,
    date_created: rfc2822(record.created_at),
    date_updated: rfc2822(record.updated_at),
    uri: accountPath(record.account_sid, `AgentExtensions/${record.sid}.json`),
  };
}

const findExtension = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.agentExtensions.get(params.Sid!), params.AccountSid!, path);

export const agentExtensionRoutes = [
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account's agent extensions, in extension creation order",
    auth: { kind: "account", scope: "agent_extensions_read" },
    query: z.lazy(() =>
      z.object({
        ...pagingQuery,
        Status: z.enum(agentStatuses, { error: `must be one of ${agentStatuses.join(", ")}` }).optional(),
      }),
    ),
    response: z.lazy(() => listSchema("agent_extensions", agentExtensionResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      const given = queryFilters<AgentExtension>(query, { Status: equals((a) => a.status) });
      const records = services.context.store.agentExtensions
        .where("account", accountSid)
        .filter(given.matches);
      return twilioJson(
        200,
        listEnvelope({
          key: "agent_extensions",
          path: accountPath(accountSid, "AgentExtensions.json"),
          filters: given.echo,
          page: query,
          records,
          render: renderAgentExtension,
          sidOf: (a) => a.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary: "Fetch an agent extension",
    auth: { kind: "account", scope: "agent_extensions_read" },
    response: agentExtensionResource,
    handle({ params, request, services }) {
      return twilioRow(200, renderAgentExtension, findExtension(services, params, request.path));
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Set an agent's status (online, offline, busy, away, dnd) or name",
    auth: { kind: "account", scope: "agent_extensions_write" },
    body: z.lazy(() =>
      z.object({
        Status: z.enum(agentStatuses, { error: `must be one of ${agentStatuses.join(", ")}` }).optional(),
        AgentName: z
          .string()
          .min(1, "must not be empty")
          .max(255, "must be at most 255 characters")
          .optional(),
      }),
    ),
    response: agentExtensionResource,
    handle({ params, body, request, services }) {
      const updated = updateAgentExtension(services.context, findExtension(services, params, request.path), {
        status: body.Status,
        agent_name: body.AgentName,
      });
      return twilioJson(200, renderAgentExtension(updated));
    },
  }),
];
