// The inspector's own reads (lists and pages shaped for the browser) and its hang-up button, on plain values.
import { z } from "zod";
import { callStatuses } from "../domain/call.js";
import { errors } from "../domain/errors.js";
import { messageStatuses } from "../domain/message.js";
import { jsonMediaType, refuseCrossSite } from "../http/cross-site.js";
import { parseParams } from "../http/params.js";
import { renderError } from "../http/render-error.js";
import { jsonResponse } from "../http/respond.js";
import type { SandboxRequest, SandboxResponse } from "../http/types.js";
import type { SandboxCore } from "../sandbox.js";
import { checkAdmin } from "./access.js";
import { inspectorApiPath } from "./paths.js";
import { describeCall, listCalls } from "./views/calls.js";
import { listConversations } from "./views/messages.js";
import { describeSandbox } from "./views/overview.js";
import { type ClearMark, markSidsLimit } from "./views/search.js";
import { describeTurns } from "./views/turns.js";

const sid = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}[0-9a-f]{32}$`), `must be a ${prefix} sid`);

/** A search and a "clear" mark, as the call and message lists take them. */
const listFilters = {
  q: z.string().max(200, "must be at most 200 characters").optional(),
  since: z.coerce.number().int().min(0).optional(),
  hide: z
    .string()
    .regex(/^([A-Z]{2}[0-9a-f]{32})(,[A-Z]{2}[0-9a-f]{32})*$/, "must be sids, comma-separated")
    .refine((value) => value.split(",").length <= markSidsLimit, `must name at most ${markSidsLimit} sids`)
    .optional(),
};
const callListQuery = z.strictObject({
  account: sid("AC").optional(),
  status: z.enum(callStatuses, { error: `must be one of ${callStatuses.join(", ")}` }).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  ...listFilters,
});
const conversationQuery = z.strictObject({
  account: sid("AC").optional(),
  thread: z.string().max(80).optional(),
  status: z.enum(messageStatuses, { error: `must be one of ${messageStatuses.join(", ")}` }).optional(),
  ...listFilters,
});

/** How many of a call's turns one answer lists (the figures are over all of them). */
const turnsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(500),
});

/** The list filters in the views' terms: `since` and `hide` make the mark of a cleared list. */
function filtersOf<Q extends { since?: number | undefined; hide?: string | undefined }>(query: Q) {
  const { since, hide, ...rest } = query;
  const mark: ClearMark | undefined =
    since === undefined ? undefined : { at: since, hide: new Set(hide ? hide.split(",") : []) };
  return { ...rest, mark };
}

function parseQuery<S extends z.ZodType>(schema: S, request: SandboxRequest): z.output<S> {
  const parsed = schema.safeParse(parseParams(request.query));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw errors.invalidParameter(issue.path.join(".") || "query", issue.message);
  }
  return parsed.data;
}

const callPage = /^\/calls\/(CA[0-9a-f]{32})$/;
const turnsPath = /^\/calls\/(CA[0-9a-f]{32})\/turns$/;
const hangupPath = /^\/calls\/(CA[0-9a-f]{32})\/hangup$/;

/** Answers `/__sandbox/ui/api/...`; every answer is admin JSON, errors in the admin API's format. */
export function createInspectorApi(sandbox: SandboxCore) {
  const route = (request: SandboxRequest): SandboxResponse => {
    const method = request.method.toUpperCase();
    // The admin API's rule for whatever is not a read (the hang-up): not from another site, and a JSON body
    // type even with no body; checked before the token, as the admin API does.
    if (method !== "GET" && method !== "HEAD") refuseCrossSite(request, [jsonMediaType]);
    checkAdmin(sandbox, request.headers.authorization, request.path);
    const path = request.path.slice(inspectorApiPath.length);
    if (method === "GET" && path === "/overview") return jsonResponse(200, describeSandbox(sandbox));
    if (method === "GET" && path === "/calls") {
      return jsonResponse(200, listCalls(sandbox, filtersOf(parseQuery(callListQuery, request))));
    }
    if (method === "GET" && path === "/conversations") {
      return jsonResponse(200, listConversations(sandbox, filtersOf(parseQuery(conversationQuery, request))));
    }
    const page = callPage.exec(path);
    if (method === "GET" && page) {
      const described = describeCall(sandbox, page[1]!);
      if (!described) throw errors.notFound(request.path);
      return jsonResponse(200, described);
    }
    const turns = turnsPath.exec(path);
    if (method === "GET" && turns) {
      const { limit } = parseQuery(turnsQuery, request);
      const described = describeTurns(sandbox, turns[1]!, limit);
      if (!described) throw errors.notFound(request.path);
      return jsonResponse(200, described);
    }
    const hangup = hangupPath.exec(path);
    if (method === "POST" && hangup) {
      if (!sandbox.store.calls.has(hangup[1]!)) throw errors.notFound(request.path);
      const call = sandbox.calls.hangup(hangup[1]!);
      return jsonResponse(200, { sid: call.sid, status: call.status });
    }
    throw errors.notFound(request.path);
  };
  return async (request: SandboxRequest): Promise<SandboxResponse> => {
    try {
      return route(request);
    } catch (error) {
      return renderError("admin", error);
    }
  };
}
