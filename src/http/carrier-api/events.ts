// Carrier events: every state change in the sandbox, with the affected resource as it was. List with filters, fetch.
import { z } from "zod";
import type { SandboxEvent } from "../../domain/event.js";
import { iso8601 } from "../format.js";
import { renderAccount } from "./accounts.js";
import { renderAgentExtension } from "./agent-extensions.js";
import { renderBalanceTransaction } from "./balances.js";
import { carrierBase, pagingQuery, type ResourceObject, resourceObject, resourceSchema } from "./document.js";
import type { ListFilters } from "./list-filters.js";
import { renderMessage } from "./messages.js";
import { renderPhoneCall } from "./phone-calls.js";
import { renderPhoneNumber } from "./phone-numbers.js";
import { renderRate } from "./rates.js";
import { carrierResourceRoutes, findIn, listIn } from "./resource-routes.js";
import { renderRingGroup } from "./ring-groups.js";
import { renderSipTrunk } from "./sip-trunks.js";
import { renderTtsEvent } from "./tts-events.js";

const collection = `${carrierBase}/events`;

// biome-ignore lint/suspicious/noExplicitAny: an event's data is the stored record of whichever type it names.
const carrierRenderers: Record<string, (record: any) => ResourceObject> = {
  account: renderAccount,
  agent_extension: renderAgentExtension,
  balance_transaction: renderBalanceTransaction,
  message: renderMessage,
  phone_call: renderPhoneCall,
  phone_number: renderPhoneNumber,
  rate: renderRate,
  ring_group: renderRingGroup,
  sip_trunk: renderSipTrunk,
  tts_event: renderTtsEvent,
};

/** Member names JSON:API reserves inside `attributes`. */
const reserved = new Set(["id", "type", "links", "relationships"]);

/**
 * The affected resource as a carrier resource object when the carrier API serves its type; otherwise
 * (recordings, transcriptions, api keys) its stored fields, with times in ISO 8601.
 */
function renderResource(event: SandboxEvent): ResourceObject {
  const render = carrierRenderers[event.resource_type];
  if (render) return render(event.data);
  const attributes = Object.fromEntries(
    Object.entries(event.data)
      .filter(([key]) => key !== "sid" && !reserved.has(key))
      .map(([key, value]) => [
        key.endsWith("_sid") ? key.replace(/_sid$/, "_id") : key,
        /_at$/.test(key) && typeof value === "number" ? iso8601(value) : value,
      ]),
  );
  return {
    type: event.resource_type,
    id: event.resource_sid,
    attributes,
    links: { self: `${collection}/${event.sid}` },
  };
}

export const eventResource = z.lazy(() =>
  resourceSchema(
    "event",
    z.object({
      event_type: z.string(),
      account_id: z.string().nullable(),
      resource_type: z.string(),
      resource_id: z.string(),
      occurred_at: z.string(),
      details: z.object({ data: z.object({ type: z.string(), id: z.string() }).loose() }),
    }),
  ),
);

export function renderEvent(event: SandboxEvent) {
  return resourceObject(
    "event",
    event.sid,
    `${collection}/${event.sid}`,
    {
      event_type: event.type,
      account_id: event.account_sid,
      resource_type: event.resource_type,
      resource_id: event.resource_sid,
      occurred_at: iso8601(event.occurred_at),
      details: { data: renderResource(event) },
    },
    { account: { type: "account", id: event.account_sid } },
  );
}

const listQuery = z.lazy(() =>
  z.strictObject({
    ...pagingQuery,
    "filter[account_id]": z.string().optional(),
    "filter[type]": z.string().optional(),
    "filter[resource_type]": z.string().optional(),
    "filter[resource_id]": z.string().optional(),
  }),
);

const listFilters: ListFilters<SandboxEvent> = {
  indexes: {
    resource: ["filter[resource_id]"],
    account: ["filter[account_id]"],
    type: ["filter[type]"],
  },
  equal: {
    "filter[account_id]": (e) => e.account_sid,
    "filter[type]": (e) => e.type,
    "filter[resource_type]": (e) => e.resource_type,
    "filter[resource_id]": (e) => e.resource_sid,
  },
};

export const carrierEventRoutes = carrierResourceRoutes({
  type: "event",
  collection,
  instance: `${collection}/:id`,
  schema: eventResource,
  render: renderEvent,
  find: findIn((store) => store.events),
  list: {
    summary: "List events, oldest first: filter by account, event type, resource type and resource id",
    query: listQuery,
    answer: listIn(collection, (store) => store.events, listFilters, renderEvent),
  },
  fetch: { summary: "Fetch an event" },
});
