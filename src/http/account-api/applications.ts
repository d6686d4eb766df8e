// Applications: create, list (FriendlyName filter), fetch, update and delete an account's named handler sets.
import { z } from "zod";
import type { Application, ApplicationHandlers } from "../../domain/application.js";
import { ownedBy } from "../../domain/found.js";
import {
  createApplication,
  deleteApplication,
  updateApplication,
} from "../../engine/accounts/applications.js";
import type { Changes } from "../../engine/context/record-changes.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson, twilioRow } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { formBoolean, formMethod, formUrl } from "./form-fields.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";
import { equals, queryFilters } from "./query-filters.js";

const collection = `${accountBase}/Applications`;
const instance = `${collection}/:Sid`;

/** Twilio's application resource (`api.v2010.account.application`). */
export const applicationResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    api_version: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    friendly_name: z.string().nullable(),
    message_status_callback: z.string().nullable(),
    sid: z.string(),
    sms_fallback_method: z.enum(["GET", "POST"]),
    sms_fallback_url: z.string().nullable(),
    sms_method: z.enum(["GET", "POST"]),
    sms_status_callback: z.string().nullable(),
    sms_url: z.string().nullable(),
    status_callback: z.string().nullable(),
    status_callback_method: z.enum(["GET", "POST"]),
    uri: z.string(),
    voice_caller_id_lookup: z.boolean(),
    voice_fallback_method: z.enum(["GET", "POST"]),
    voice_fallback_url: z.string().nullable(),
    voice_method: z.enum(["GET", "POST"]),
    voice_url: z.string().nullable(),
    public_application_connect_enabled: z.boolean(),
  }),
);

export function renderApplication(app: Application): z.infer<typeof applicationResource> {
  return {
    account_sid: app.account_sid,
    api_version: apiVersion,
    date_created: rfc2822(app.created_at),
    date_updated: rfc2822(app.updated_at),
    friendly_name: app.friendly_name,
    message_status_callback: app.message_status_callback,
    sid: app.sid,
    sms_fallback_method: app.sms_fallback_method,
    sms_fallback_url: app.sms_fallback_url,
    sms_method: app.sms_method,
    sms_status_callback: app.sms_status_callback,
    sms_url: app.sms_url,
    status_callback: app.status_callback,
    status_callback_method: app.status_callback_method,
    uri: accountPath(app.account_sid, `Applications/${app.sid}.json`),
    voice_caller_id_lookup: app.voice_caller_id_lookup,
    voice_fallback_method: app.voice_fallback_method,
    voice_fallback_url: app.voice_fallback_url,
    voice_method: app.voice_method,
    voice_url: app.voice_url,
    public_application_connect_enabled: app.public_application_connect_enabled,
  };
}

/** Twilio's create and update parameters (ApiVersion is taken and ignored: there is one version). */
const handlerParams = z.lazy(() =>
  z.object({
    ApiVersion: z.literal("2010-04-01", { error: "must be 2010-04-01" }).optional(),
    FriendlyName: z.string().max(64, "must be at most 64 characters").optional(),
    VoiceUrl: formUrl.optional(),
    VoiceMethod: formMethod.optional(),
    VoiceFallbackUrl: formUrl.optional(),
    VoiceFallbackMethod: formMethod.optional(),
    VoiceCallerIdLookup: formBoolean.optional(),
    StatusCallback: formUrl.optional(),
    StatusCallbackMethod: formMethod.optional(),
    SmsUrl: formUrl.optional(),
    SmsMethod: formMethod.optional(),
    SmsFallbackUrl: formUrl.optional(),
    SmsFallbackMethod: formMethod.optional(),
    SmsStatusCallback: formUrl.optional(),
    MessageStatusCallback: formUrl.optional(),
    PublicApplicationConnectEnabled: formBoolean.optional(),
  }),
);

function toHandlers(body: z.output<typeof handlerParams>): Changes<ApplicationHandlers> {
  return {
    friendly_name: body.FriendlyName,
    voice_url: body.VoiceUrl,
    voice_method: body.VoiceMethod,
    voice_fallback_url: body.VoiceFallbackUrl,
    voice_fallback_method: body.VoiceFallbackMethod,
    voice_caller_id_lookup: body.VoiceCallerIdLookup,
    status_callback: body.StatusCallback,
    status_callback_method: body.StatusCallbackMethod,
    sms_url: body.SmsUrl,
    sms_method: body.SmsMethod,
    sms_fallback_url: body.SmsFallbackUrl,
    sms_fallback_method: body.SmsFallbackMethod,
    sms_status_callback: body.SmsStatusCallback,
    message_status_callback: body.MessageStatusCallback,
    public_application_connect_enabled: body.PublicApplicationConnectEnabled,
  };
}

const findApplication = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.applications.get(params.Sid!), params.AccountSid!, path);

export const applicationRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "account",
    summary: "Create an application: voice and messaging handlers that calls and numbers can run by its sid",
    auth: { kind: "account", scope: "incoming_phone_numbers_write" },
    body: handlerParams,
    status: 201,
    response: applicationResource,
    handle({ params, body, services }) {
      const app = createApplication(services.context, params.AccountSid!, toHandlers(body));
      return twilioJson(201, renderApplication(app));
    },
  }),
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account's applications, oldest first (FriendlyName filter)",
    auth: { kind: "account", scope: "incoming_phone_numbers_read" },
    query: z.lazy(() => z.object({ ...pagingQuery, FriendlyName: z.string().optional() })),
    response: z.lazy(() => listSchema("applications", applicationResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      const given = queryFilters<Application>(query, { FriendlyName: equals((a) => a.friendly_name) });
      return twilioJson(
        200,
        listEnvelope({
          key: "applications",
          path: accountPath(accountSid, "Applications.json"),
          filters: given.echo,
          page: query,
          records: services.context.store.applications.where("account", accountSid).filter(given.matches),
          render: renderApplication,
          sidOf: (a) => a.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary: "Fetch an application",
    auth: { kind: "account", scope: "incoming_phone_numbers_read" },
    response: applicationResource,
    handle({ params, request, services }) {
      return twilioRow(200, renderApplication, findApplication(services, params, request.path));
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Change an application's handlers",
    auth: { kind: "account", scope: "incoming_phone_numbers_write" },
    body: handlerParams,
    response: applicationResource,
    handle({ params, body, request, services }) {
      const app = findApplication(services, params, request.path);
      return twilioJson(200, renderApplication(updateApplication(services.context, app, toHandlers(body))));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "account",
    summary: "Delete an application",
    auth: { kind: "account", scope: "incoming_phone_numbers_write" },
    status: 204,
    handle({ params, request, services }) {
      deleteApplication(services.context, findApplication(services, params, request.path));
      return noContent();
    },
  }),
];
