// Keys: the account's API keys as Twilio's Keys resource (create with its secret once, list, fetch, rename, delete).
import { z } from "zod";
import { type ApiKey, accountScopes } from "../../domain/api-key.js";
import { ownedBy } from "../../domain/found.js";
import { createApiKey, renameApiKey, revokeApiKey } from "../../engine/accounts/api-keys.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson, twilioRow } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath } from "./base.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";

const collection = `${accountBase}/Keys`;
const instance = `${collection}/:Sid`;

/** Twilio's key (`api.v2010.account.key`): never its secret. */
export const keyResource = z.lazy(() =>
  z.object({
    sid: z.string(),
    friendly_name: z.string().nullable(),
    date_created: z.string(),
    date_updated: z.string(),
  }),
);

/** Twilio's new key (`api.v2010.account.new_key`): the secret, "ONLY returned when the API Key is first created". */
export const newKeyResource = z.lazy(() => z.object({ ...keyResource.unwrap().shape, secret: z.string() }));

/** The store keeps no update time for keys: date_updated is the creation's. */
const renderKey = (key: ApiKey): z.infer<typeof keyResource> => ({
  sid: key.sid,
  friendly_name: key.friendly_name,
  date_created: rfc2822(key.created_at),
  date_updated: rfc2822(key.created_at),
});

/** "A descriptive string that you create to describe the resource. It can be up to 64 characters long." */
const keyBody = z.lazy(() =>
  z.object({ FriendlyName: z.string().max(64, "must be at most 64 characters").optional() }),
);

const findKey = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.apiKeys.get(params.Sid!), params.AccountSid!, path);

export const keyRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "account",
    summary:
      "Create an API key: its sid and secret act as Basic credentials on the account's resources, all but Accounts and Keys",
    auth: { kind: "account", scope: null },
    body: keyBody,
    status: 201,
    response: newKeyResource,
    handle({ params, body, services }) {
      // A standard key: every resource of the account (routes for master credentials only refuse keys).
      const key = createApiKey(services.context, params.AccountSid!, [...accountScopes], {
        friendly_name: body.FriendlyName ?? null,
      });
      return twilioJson(201, { ...renderKey(key), secret: key.key });
    },
  }),
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account's API keys, newest first (their secrets are never shown again)",
    auth: { kind: "account", scope: null },
    query: z.lazy(() => z.object(pagingQuery)),
    response: z.lazy(() => listSchema("keys", keyResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      return twilioJson(
        200,
        listEnvelope({
          key: "keys",
          path: accountPath(accountSid, "Keys.json"),
          filters: [],
          page: query,
          records: [...services.context.store.apiKeys.where("account", accountSid)].reverse(),
          render: renderKey,
          sidOf: (key) => key.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary: "Fetch an API key (without its secret)",
    auth: { kind: "account", scope: null },
    response: keyResource,
    handle({ params, request, services }) {
      return twilioRow(200, renderKey, findKey(services, params, request.path));
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Rename an API key (FriendlyName)",
    auth: { kind: "account", scope: null },
    body: keyBody,
    response: keyResource,
    handle({ params, body, request, services }) {
      const key = findKey(services, params, request.path);
      const renamed =
        body.FriendlyName === undefined ? key : renameApiKey(services.context, key, body.FriendlyName);
      return twilioJson(200, renderKey(renamed));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "account",
    summary: "Delete an API key: its credentials stop working at once",
    auth: { kind: "account", scope: null },
    status: 204,
    handle({ params, request, services }) {
      revokeApiKey(services.context, findKey(services, params, request.path));
      return noContent();
    },
  }),
];
