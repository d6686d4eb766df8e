// Admin: an account's console settings that Twilio keeps outside its REST API (HTTP auth on recording media, WhatsApp senders).
import { z } from "zod";
import type { Account } from "../../domain/account.js";
import { e164, sid } from "../../domain/fields.js";
import { getAccount, updateAccount } from "../../engine/accounts/accounts.js";
import { jsonResponse } from "../respond.js";
import { defineRoute } from "../route.js";
import { adminPathParams } from "./path-params.js";

const settingsResource = z.lazy(() =>
  z.strictObject({
    account_sid: sid("AC"),
    media_auth: z.boolean(),
    whatsapp_senders: z.array(e164),
  }),
);

const settingsOf = (account: Account) => ({
  account_sid: account.sid,
  media_auth: account.media_auth,
  whatsapp_senders: account.whatsapp_senders,
});

export const accountSettingsRoutes = [
  defineRoute({
    method: "GET",
    path: "/__sandbox/accounts/:AccountSid/settings",
    params: adminPathParams.account,
    surface: "admin",
    summary:
      "An account's settings: media_auth (recording media needs the account's credentials) and whatsapp_senders (its numbers registered for WhatsApp)",
    auth: { kind: "admin" },
    response: settingsResource,
    handle({ params, request, services }) {
      const account = getAccount(services.context, params.AccountSid!, request.path);
      return jsonResponse(200, settingsOf(account));
    },
  }),
  defineRoute({
    method: "PATCH",
    path: "/__sandbox/accounts/:AccountSid/settings",
    params: adminPathParams.account,
    surface: "admin",
    summary:
      "Change an account's settings (media_auth: true puts recording media behind the account's auth; whatsapp_senders replaces the list)",
    auth: { kind: "admin" },
    body: z.lazy(() =>
      z.strictObject({ media_auth: z.boolean().optional(), whatsapp_senders: z.array(e164).optional() }),
    ),
    response: settingsResource,
    handle({ params, body, request, services }) {
      const account = getAccount(services.context, params.AccountSid!, request.path);
      const updated = updateAccount(services.context, account, {
        media_auth: body.media_auth,
        whatsapp_senders: body.whatsapp_senders,
      });
      return jsonResponse(200, settingsOf(updated));
    },
  }),
];
