// IncomingPhoneNumbers: numbers assigned to the account and the handlers that receive their calls and messages.
import { z } from "zod";
import { ownedBy } from "../../domain/found.js";
import type { NumberHandlers, numberTypes, PhoneNumber } from "../../domain/phone-number.js";
import { provisionNumber, releaseNumber, updateHandlers } from "../../engine/accounts/phone-numbers.js";
import { buyTestNumber } from "../../engine/test-credentials/test-credentials.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson, twilioRow } from "../respond.js";
import { defineRoute } from "../route.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { formE164, formMethod, formUrl } from "./form-fields.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";
import { equals, queryFilters } from "./query-filters.js";

type NumberType = (typeof numberTypes)[number];

const collection = `${accountBase}/IncomingPhoneNumbers`;
const instance = `${collection}/:Sid`;

/** The response resource, with Twilio's fields plus the spec's `status` and `status_callback_url`. */
export const incomingPhoneNumberResource = z.lazy(() =>
  z.object({
    sid: z.string(),
    account_sid: z.string(),
    phone_number: z.string(),
    friendly_name: z.string(),
    voice_url: z.string().nullable(),
    voice_method: z.string(),
    voice_fallback_url: z.string().nullable(),
    voice_fallback_method: z.string(),
    voice_caller_id_lookup: z.boolean(),
    voice_application_sid: z.string().nullable(),
    voice_receive_mode: z.string(),
    status_callback: z.string().nullable(),
    status_callback_url: z.string().nullable(),
    status_callback_method: z.string(),
    sms_url: z.string().nullable(),
    sms_method: z.string(),
    sms_fallback_url: z.string().nullable(),
    sms_fallback_method: z.string(),
    sms_application_sid: z.string().nullable(),
    address_requirements: z.string(),
    address_sid: z.string().nullable(),
    api_version: z.string(),
    beta: z.boolean(),
    bundle_sid: z.string().nullable(),
    capabilities: z.object({ voice: z.boolean(), sms: z.boolean(), mms: z.boolean(), fax: z.boolean() }),
    date_created: z.string(),
    date_updated: z.string(),
    emergency_status: z.string(),
    emergency_address_sid: z.string().nullable(),
    emergency_address_status: z.string(),
    identity_sid: z.string().nullable(),
    origin: z.string(),
    trunk_sid: z.string().nullable(),
    type: z.string(),
    status: z.string(),
    uri: z.string(),
    subresource_uris: z.record(z.string(), z.string()),
  }),
);
export type IncomingPhoneNumberResource = z.infer<typeof incomingPhoneNumberResource>;

export function renderIncomingPhoneNumber(number: PhoneNumber): IncomingPhoneNumberResource {
  const accountSid = number.account_sid ?? "";
  const uri = accountPath(accountSid, `IncomingPhoneNumbers/${number.sid}.json`);
  return {
    sid: number.sid,
    account_sid: accountSid,
    phone_number: number.number,
    friendly_name: number.friendly_name,
    voice_url: number.voice_url,
    voice_method: number.voice_method,
    voice_fallback_url: number.voice_fallback_url,
    voice_fallback_method: number.voice_fallback_method,
    voice_caller_id_lookup: false,
    voice_application_sid: number.voice_application_sid,
    voice_receive_mode: "voice",
    status_callback: number.status_callback,
    status_callback_url: number.status_callback,
    status_callback_method: number.status_callback_method,
    sms_url: number.sms_url,
    sms_method: number.sms_method,
    sms_fallback_url: number.sms_fallback_url,
    sms_fallback_method: number.sms_fallback_method,
    sms_application_sid: number.sms_application_sid,
    address_requirements: "none",
    address_sid: null,
    api_version: apiVersion,
    beta: false,
    bundle_sid: null,
    capabilities: { voice: true, sms: true, mms: true, fax: false },
    date_created: rfc2822(number.assigned_at ?? number.created_at),
    date_updated: rfc2822(number.updated_at),
    emergency_status: "Inactive",
    emergency_address_sid: null,
    emergency_address_status: "unregistered",
    identity_sid: null,
    origin: "twilio",
    trunk_sid: null,
    type: number.number_type === "toll_free" ? "toll-free" : number.number_type,
    status: "active",
    uri,
    // Twilio's one subresource of a number: its Marketplace add-ons (always none here).
    subresource_uris: { assigned_add_ons: uri.replace(/\.json$/, "/AssignedAddOns.json") },
  };
}

const applicationSid = z.lazy(() =>
  z
    .string()
    .regex(
      /^(AP[0-9a-fA-F]{32})?$/,
      "must be an application sid (AP and 32 hex digits), or empty to clear it",
    )
    .transform((value) => (value === "" ? null : value)),
);

/** The handler parameters Twilio accepts on create and update (spec part 4 plus Twilio's fallbacks). */
const handlerParams = {
  FriendlyName: z.string().max(64, "must be at most 64 characters").optional(),
  VoiceUrl: formUrl.optional(),
  VoiceMethod: formMethod.optional(),
  VoiceFallbackUrl: formUrl.optional(),
  VoiceFallbackMethod: formMethod.optional(),
  StatusCallback: formUrl.optional(),
  // The spec's name for StatusCallback.
  StatusCallbackUrl: formUrl.optional(),
  StatusCallbackMethod: formMethod.optional(),
  SmsUrl: formUrl.optional(),
  SmsMethod: formMethod.optional(),
  SmsFallbackUrl: formUrl.optional(),
  SmsFallbackMethod: formMethod.optional(),
  // An application whose handlers the number runs instead of its own; "" clears it.
  VoiceApplicationSid: applicationSid.optional(),
  SmsApplicationSid: applicationSid.optional(),
};
type HandlerParams = { [K in keyof typeof handlerParams]?: z.output<(typeof handlerParams)[K]> };

function toHandlers(params: HandlerParams): Partial<NumberHandlers> {
  return {
    friendly_name: params.FriendlyName,
    voice_url: params.VoiceUrl,
    voice_method: params.VoiceMethod,
    voice_fallback_url: params.VoiceFallbackUrl,
    voice_fallback_method: params.VoiceFallbackMethod,
    status_callback: params.StatusCallback ?? params.StatusCallbackUrl,
    status_callback_method: params.StatusCallbackMethod,
    sms_url: params.SmsUrl,
    sms_method: params.SmsMethod,
    sms_fallback_url: params.SmsFallbackUrl,
    sms_fallback_method: params.SmsFallbackMethod,
    voice_application_sid: params.VoiceApplicationSid,
    sms_application_sid: params.SmsApplicationSid,
  };
}

const createParams = z.lazy(() =>
  z.object({
    PhoneNumber: formE164.optional(),
    AreaCode: z
      .string()
      .regex(/^\d{3}$/, "must be a three-digit area code")
      .optional(),
    ...handlerParams,
  }),
);

const listQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    PhoneNumber: z.string().optional(),
    FriendlyName: z.string().optional(),
    Beta: z.string().optional(),
    Origin: z.string().optional(),
  }),
);

/** Twilio's PhoneNumber filter: digits to look for anywhere, `*` standing for any one character. */
function numberFilter(pattern: string): (number: string) => boolean {
  const escaped = pattern
    .replace(/[^0-9*+A-Za-z]/g, "")
    .replace(/[+]/g, "\\+")
    .replace(/\*/g, "\\d");
  const regex = new RegExp(escaped);
  return (number) => regex.test(number);
}

/** Twilio's typed lists: the same numbers, of one type, under their own path. */
const typedLists: { segment: string; type: NumberType }[] = [
  { segment: "Local", type: "local" },
  { segment: "TollFree", type: "toll_free" },
  { segment: "Mobile", type: "mobile" },
];

const createRoute = (typed?: (typeof typedLists)[number]) => {
  const route = defineRoute({
    method: "POST",
    path: typed ? `${collection}/${typed.segment}` : collection,
    surface: "account",
    summary: typed
      ? `Provision a ${typed.type} number and assign it to the account (carrier administrators only)`
      : "Provision a number from the carrier inventory and assign it to the account (carrier administrators only; test credentials buy a magic number, keeping nothing)",
    auth: { kind: "account", scope: "incoming_phone_numbers_write", carrier: "only" },
    body: createParams,
    errorCodes: { PhoneNumber: 21421, AreaCode: 21452 },
    status: 201,
    response: incomingPhoneNumberResource,
    handle({ params, body, services }) {
      const request = { phoneNumber: body.PhoneNumber, areaCode: body.AreaCode, numberType: typed?.type };
      const number = provisionNumber(services.context, params.AccountSid!, request, toHandlers(body));
      return twilioJson(201, renderIncomingPhoneNumber(number));
    },
    // Twilio test credentials: PhoneNumber and AreaCode magic values decide; nothing is provisioned.
    testCredentials({ params, body, services }) {
      const number = buyTestNumber(services.context, {
        accountSid: params.AccountSid!,
        phoneNumber: body.PhoneNumber,
        areaCode: body.AreaCode,
        handlers: toHandlers(body),
      });
      return twilioJson(201, renderIncomingPhoneNumber(number));
    },
  });
  // Test credentials reach the untyped create only, the one Twilio documents for them.
  const { testCredentials: _untyped, ...typedRoute } = route;
  return typed ? typedRoute : route;
};

const listRoute = (typed?: (typeof typedLists)[number]) =>
  defineRoute({
    method: "GET",
    path: typed ? `${collection}/${typed.segment}` : collection,
    surface: "account",
    summary: typed
      ? `List the account's ${typed.type} incoming phone numbers`
      : "List the account's incoming phone numbers",
    auth: { kind: "account", scope: "incoming_phone_numbers_read", carrier: "allowed" },
    query: listQuery,
    response: z.lazy(() => listSchema("incoming_phone_numbers", incomingPhoneNumberResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      const given = queryFilters<PhoneNumber>(query, {
        PhoneNumber: (pattern) => {
          const matches = numberFilter(String(pattern));
          return (n) => matches(n.number);
        },
        FriendlyName: equals((n) => n.friendly_name),
      });
      const records = services.context.store.phoneNumbers
        .where("account", accountSid)
        .filter((n) => (typed === undefined || n.number_type === typed.type) && given.matches(n));
      return twilioJson(
        200,
        listEnvelope({
          key: "incoming_phone_numbers",
          path: accountPath(accountSid, `IncomingPhoneNumbers${typed ? `/${typed.segment}` : ""}.json`),
          filters: given.echo,
          page: query,
          records,
          render: renderIncomingPhoneNumber,
          sidOf: (n) => n.sid,
        }),
      );
    },
  });

export const incomingPhoneNumberRoutes = [
  // The typed lists come first: `IncomingPhoneNumbers/Local` would otherwise match `IncomingPhoneNumbers/:Sid`.
  ...typedLists.flatMap((typed) => [createRoute(typed), listRoute(typed)]),
  createRoute(),
  listRoute(),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary: "Fetch an incoming phone number",
    auth: { kind: "account", scope: "incoming_phone_numbers_read", carrier: "allowed" },
    response: incomingPhoneNumberResource,
    handle({ params, request, services }) {
      const number = ownedBy(
        services.context.store.phoneNumbers.get(params.Sid!),
        params.AccountSid!,
        request.path,
      );
      return twilioRow(200, renderIncomingPhoneNumber, number);
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Update an incoming phone number's handlers",
    auth: { kind: "account", scope: "incoming_phone_numbers_write", carrier: "allowed" },
    body: z.lazy(() => z.object(handlerParams)),
    response: incomingPhoneNumberResource,
    handle({ params, body, request, services }) {
      const number = ownedBy(
        services.context.store.phoneNumbers.get(params.Sid!),
        params.AccountSid!,
        request.path,
      );
      return twilioJson(
        200,
        renderIncomingPhoneNumber(updateHandlers(services.context, number, toHandlers(body))),
      );
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "account",
    summary: "Release an incoming phone number back to the carrier inventory",
    auth: { kind: "account", scope: "incoming_phone_numbers_write", carrier: "allowed" },
    status: 204,
    handle({ params, request, services }) {
      const number = ownedBy(
        services.context.store.phoneNumbers.get(params.Sid!),
        params.AccountSid!,
        request.path,
      );
      releaseNumber(services.context, number);
      return noContent();
    },
  }),
];
