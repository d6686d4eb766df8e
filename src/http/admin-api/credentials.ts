// Admin: the dashboard's stand-in. Read an account's live and test credentials; mint and revoke scoped API keys.
import { z } from "zod";
import { type ApiKey, accountScopes, apiKeySchema } from "../../domain/api-key.js";
import { sid } from "../../domain/fields.js";
import { found } from "../../domain/found.js";
import { getAccount } from "../../engine/accounts/accounts.js";
import { createApiKey, revokeApiKey } from "../../engine/accounts/api-keys.js";
import { iso8601 } from "../format.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";
import { adminPathParams } from "./path-params.js";

/** An API key as the admin API shows it (the secret included: this is the dashboard's stand-in). */
const apiKeyResource = z.lazy(() => apiKeySchema.extend({ created_at: z.iso.datetime() }).strict());

const renderKey = (key: ApiKey): z.output<typeof apiKeyResource> => ({
  sid: key.sid,
  account_sid: key.account_sid,
  key: key.key,
  scopes: key.scopes,
  friendly_name: key.friendly_name,
  created_at: iso8601(key.created_at),
});

export const credentialRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/accounts/:AccountSid/credentials",
    params: adminPathParams.account,
    surface: "admin",
    summary: "An account's sid and master auth token, and its test account sid and test auth token",
    auth: { kind: "admin" },
    response: z.lazy(() =>
      z.strictObject({
        account_sid: sid("AC"),
        auth_token: z.string(),
        test_account_sid: sid("AC"),
        test_auth_token: z.string(),
      }),
    ),
    handle({ params, request, services }) {
      const account = getAccount(services.context, params.AccountSid!, request.path);
      return jsonResponse(200, {
        account_sid: account.sid,
        auth_token: account.auth_token,
        test_account_sid: account.test_account_sid,
        test_auth_token: account.test_auth_token,
      });
    },
  }),
  defineRoute({
    method: "GET",
    path: "/__sandbox/accounts/:AccountSid/api_keys",
    params: adminPathParams.account,
    surface: "admin",
    summary: "An account's API keys",
    auth: { kind: "admin" },
    response: z.lazy(() => z.strictObject({ api_keys: z.array(apiKeyResource) })),
    handle({ params, request, services }) {
      const account = getAccount(services.context, params.AccountSid!, request.path);
      return jsonResponse(200, {
        api_keys: services.context.store.apiKeys.where("account", account.sid).map(renderKey),
      });
    },
  }),
  defineRoute({
    method: "POST",
    path: "/__sandbox/accounts/:AccountSid/api_keys",
    params: adminPathParams.account,
    surface: "admin",
    summary: "Mint a scoped API key for an account",
    auth: { kind: "admin" },
    body: z.lazy(() =>
      z.strictObject({
        scopes: z.array(z.enum(accountScopes, { error: `must be one of ${accountScopes.join(", ")}` })),
        friendly_name: z.string().max(64).optional(),
      }),
    ),
    status: 201,
    response: apiKeyResource,
    handle({ params, body, request, services }) {
      const account = getAccount(services.context, params.AccountSid!, request.path);
      const key = createApiKey(services.context, account.sid, body.scopes, {
        friendly_name: body.friendly_name,
      });
      return jsonResponse(201, renderKey(key));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/__sandbox/api_keys/:KeySid",
    params: adminPathParams.apiKey,
    surface: "admin",
    summary: "Revoke one API key; other keys keep working",
    auth: { kind: "admin" },
    response: z.lazy(() => z.strictObject({ revoked: sid("SK") })),
    handle({ params, request, services }) {
      const key = found(services.context.store.apiKeys.get(params.KeySid!), request.path);
      revokeApiKey(services.context, key);
      return jsonResponse(200, { revoked: key.sid });
    },
  }),
];
