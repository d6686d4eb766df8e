// Admin: an account's console settings that Twilio keeps outside its REST API (HTTP auth on recording media).
import { z } from "zod";
import { sid } from "../../domain/fields.js";
import { getAccount, updateAccount } from "../../engine/accounts.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";

const settingsResource = z.strictObject({ account_sid: sid("AC"), media_auth: z.boolean() });

export const accountSettingsRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/accounts/:AccountSid/settings",
    surface: "admin",
    summary: "An account's settings: media_auth (recording media needs the account's credentials)",
    auth: { kind: "admin" },
    response: settingsResource,
    handle({ params, request, services }) {
      const account = getAccount(services.context, params.AccountSid!, request.path);
      return jsonResponse(200, { account_sid: account.sid, media_auth: account.media_auth });
    },
  }),
  defineRoute({
    method: "PATCH",
    path: "/__sandbox/accounts/:AccountSid/settings",
    surface: "admin",
    summary: "Change an account's settings (media_auth: true puts recording media behind the account's auth)",
    auth: { kind: "admin" },
    body: z.strictObject({ media_auth: z.boolean().optional() }),
    response: settingsResource,
    handle({ params, body, request, services }) {
      const account = getAccount(services.context, params.AccountSid!, request.path);
      const updated = updateAccount(services.context, account, { media_auth: body.media_auth });
      return jsonResponse(200, { account_sid: updated.sid, media_auth: updated.media_auth });
    },
  }),
];
