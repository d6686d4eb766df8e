// Admin: steer an agent the way a softphone would, by extension number: change its status at once.
import { z } from "zod";
import { agentStatuses } from "../../domain/carrier-records.js";
import { found } from "../../domain/found.js";
import { findExtension, updateAgentExtension } from "../../engine/accounts/agent-extensions.js";
import { iso8601 } from "../format.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";
import { adminPathParams } from "./path-params.js";

const agentResource = z.lazy(() =>
  z.object({
    sid: z.string(),
    account_sid: z.string(),
    agent_name: z.string(),
    extension: z.string(),
    status: z.enum(agentStatuses),
    updated_at: z.string(),
  }),
);

export const agentRoutes = [
  defineRoute({
    method: "PUT",
    path: "/__sandbox/accounts/:AccountSid/agents/:Extension/status",
    params: adminPathParams.agent,
    surface: "admin",
    summary: "Set an agent's status by extension (online, offline, busy, away, dnd); the next Dial sees it",
    auth: { kind: "admin" },
    body: z.lazy(() =>
      z.strictObject({
        status: z.enum(agentStatuses, { error: `must be one of ${agentStatuses.join(", ")}` }),
      }),
    ),
    response: agentResource,
    handle({ params, body, request, services }) {
      const agent = found(
        findExtension(services.context, params.AccountSid!, params.Extension!),
        request.path,
      );
      const updated = updateAgentExtension(services.context, agent, { status: body.status });
      return jsonResponse(200, {
        sid: updated.sid,
        account_sid: updated.account_sid,
        agent_name: updated.agent_name,
        extension: updated.extension,
        status: updated.status,
        updated_at: iso8601(updated.updated_at),
      });
    },
  }),
];
