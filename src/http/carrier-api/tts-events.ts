// Carrier TTS events: one per text-to-speech use (account, call, voice, characters, price). List and fetch.
import { z } from "zod";
import type { TtsEvent } from "../../domain/carrier-records.js";
import { iso8601 } from "../format.js";
import { carrierBase, dateFilter, pagingQuery, resourceObject, resourceSchema } from "./document.js";
import type { ListFilters } from "./list-filters.js";
import { carrierResourceRoutes, findIn, listIn } from "./resource-routes.js";

const collection = `${carrierBase}/tts_events`;

export const ttsEventResource = z.lazy(() =>
  resourceSchema(
    "tts_event",
    z.object({
      account_id: z.string(),
      phone_call_id: z.string().nullable(),
      voice: z.string(),
      characters: z.number().int(),
      price: z.string(),
      price_unit: z.string(),
      created_at: z.string(),
    }),
  ),
);

export function renderTtsEvent(event: TtsEvent) {
  return resourceObject(
    "tts_event",
    event.sid,
    `${collection}/${event.sid}`,
    {
      account_id: event.account_sid,
      phone_call_id: event.call_sid,
      voice: event.voice,
      characters: event.characters,
      price: event.price,
      price_unit: event.price_unit,
      created_at: iso8601(event.created_at),
    },
    {
      account: { type: "account", id: event.account_sid },
      phone_call: { type: "phone_call", id: event.call_sid },
    },
  );
}

const listQuery = z.lazy(() =>
  z.strictObject({
    ...pagingQuery,
    "filter[account_id]": z.string().optional(),
    "filter[phone_call_id]": z.string().optional(),
    "filter[voice]": z.string().optional(),
    "filter[from_date]": dateFilter.optional(),
    "filter[to_date]": dateFilter.optional(),
  }),
);

const listFilters: ListFilters<TtsEvent> = {
  indexes: { call: ["filter[phone_call_id]"], account: ["filter[account_id]"] },
  equal: {
    "filter[account_id]": (t) => t.account_sid,
    "filter[phone_call_id]": (t) => t.call_sid,
    "filter[voice]": (t) => t.voice,
  },
  createdAt: (t) => t.created_at,
};

export const carrierTtsEventRoutes = carrierResourceRoutes({
  type: "tts_event",
  collection,
  instance: `${collection}/:id`,
  schema: ttsEventResource,
  render: renderTtsEvent,
  find: findIn((store) => store.ttsEvents),
  list: {
    summary: "List TTS uses: filter by account, call, voice and creation date",
    query: listQuery,
    answer: listIn(collection, (store) => store.ttsEvents, listFilters, renderTtsEvent),
  },
  fetch: { summary: "Fetch a TTS event" },
});
