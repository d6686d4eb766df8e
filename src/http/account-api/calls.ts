// Calls: place outbound calls, list and fetch them, control them (cancel, hang up, redirect) and delete finished ones.
import { z } from "zod";
import {
  type Call,
  callStatusEvents,
  callStatuses,
  clientAddressPattern,
  sipAddressPattern,
} from "../../domain/call.js";
import { e164Pattern } from "../../domain/fields.js";
import { formatNumber } from "../../domain/phone-number.js";
import { applicationCallHandlers } from "../../engine/accounts/applications.js";
import type { NewCall } from "../../engine/calls/calls.js";
import { placeCall } from "../../engine/calls/place-call.js";
import type { EngineContext } from "../../engine/context/context.js";
import { placeTestCall } from "../../engine/test-credentials/test-credentials.js";
import { rfc2822, rfc2822OrNull } from "../format.js";
import { noContent, twilioJson, twilioRow } from "../respond.js";
import { defineRoute } from "../route.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { dateFilter, dateFilterQuery } from "./date-filters.js";
import { formBoolean, formMethod, formUrl, repeated, seconds } from "./form-fields.js";
import {
  machineDetectionErrorCodes,
  machineDetectionOptions,
  machineDetectionParams,
} from "./machine-detection-params.js";
import { listEnvelope, listSchema, pagingQuery, walkListPage } from "./paging.js";
import { callInPath } from "./path-call.js";
import { equals, queryFilters } from "./query-filters.js";
import { recordingParams } from "./recording-params.js";

const collection = `${accountBase}/Calls`;
const instance = `${collection}/:CallSid`;

/** Twilio's call resource (schema `api.v2010.account.call`) plus `annotation`, which its fixtures carry. */
export const callResource = z.lazy(() =>
  z.object({
    sid: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    parent_call_sid: z.string().nullable(),
    account_sid: z.string(),
    to: z.string(),
    to_formatted: z.string(),
    from: z.string(),
    from_formatted: z.string(),
    phone_number_sid: z.string().nullable(),
    status: z.enum(callStatuses),
    start_time: z.string().nullable(),
    end_time: z.string().nullable(),
    duration: z.string().nullable(),
    price: z.string().nullable(),
    price_unit: z.string(),
    direction: z.string(),
    answered_by: z.string().nullable(),
    annotation: z.string().nullable(),
    api_version: z.string(),
    forwarded_from: z.string().nullable(),
    group_sid: z.string().nullable(),
    caller_name: z.string().nullable(),
    queue_time: z.string(),
    trunk_sid: z.string().nullable(),
    uri: z.string(),
    subresource_uris: z.record(z.string(), z.string()),
  }),
);
export type CallResource = z.infer<typeof callResource>;

/** The call's subresources this sandbox serves (Twilio lists more; an unserved one is left out, not advertised). */
const callSubresources = ["recordings", "notifications"];

export function renderCall(call: Call): CallResource {
  const uri = accountPath(call.account_sid, `Calls/${call.sid}.json`);
  const base = uri.replace(/\.json$/, "");
  return {
    sid: call.sid,
    date_created: rfc2822(call.created_at),
    date_updated: rfc2822(call.updated_at),
    parent_call_sid: call.parent_call_sid,
    account_sid: call.account_sid,
    to: call.to,
    to_formatted: formatNumber(call.to),
    from: call.from,
    from_formatted: formatNumber(call.from),
    phone_number_sid: call.phone_number_sid,
    status: call.status,
    start_time: rfc2822OrNull(call.start_time),
    end_time: rfc2822OrNull(call.end_time),
    duration: call.duration === null ? null : String(call.duration),
    price: call.price,
    price_unit: call.price_unit,
    direction: call.direction,
    answered_by: call.answered_by,
    annotation: call.annotation,
    api_version: apiVersion,
    forwarded_from: call.forwarded_from,
    group_sid: call.group_sid,
    caller_name: call.caller_name,
    queue_time: "0",
    trunk_sid: call.trunk_sid,
    uri,
    subresource_uris: Object.fromEntries(
      callSubresources.map((key) => [key, `${base}/${key.charAt(0).toUpperCase() + key.slice(1)}.json`]),
    ),
  };
}

/** A number, or a Voice SDK client (`client:alice`). */
const callParty = z.lazy(() =>
  z
    .string({ error: "is required" })
    .refine(
      (value) => e164Pattern.test(value) || clientAddressPattern.test(value),
      "must be an E.164 number such as +14155550100, or client: and an identity",
    ),
);

/** Whom a call goes to: a number, a client, or a SIP address one of the account's trunks reaches. */
const callee = z.lazy(() =>
  z
    .string({ error: "is required" })
    .refine(
      (value) => e164Pattern.test(value) || clientAddressPattern.test(value) || sipAddressPattern.test(value),
      "must be an E.164 number such as +14155550100, client: and an identity, or sip:user@host",
    ),
);

const createParams = z.lazy(() =>
  z.object({
    To: callee,
    From: callParty,
    Url: formUrl.optional(),
    Twiml: z.string().max(4000, "must be at most 4000 characters").optional(),
    ApplicationSid: z
      .string()
      .regex(/^AP[0-9a-fA-F]{32}$/, "must be an application sid (AP and 32 hex digits)")
      .optional(),
    Method: formMethod.optional(),
    FallbackUrl: formUrl.optional(),
    FallbackMethod: formMethod.optional(),
    StatusCallback: formUrl.optional(),
    StatusCallbackMethod: formMethod.optional(),
    StatusCallbackEvent: repeated(
      z.enum(callStatusEvents, { error: `must be one of ${callStatusEvents.join(", ")}` }),
    ),
    SendDigits: z
      .string()
      .regex(/^[0-9A-DwW#*]{1,32}$/, "must be up to 32 of 0-9, A-D, #, * and w/W (pause)")
      .optional(),
    // Twilio rings for at most 600 seconds; larger values are cut to 600 as Twilio does.
    Timeout: seconds()
      .min(1, "must be between 1 and 600")
      .transform((n) => Math.min(n, 600))
      .optional(),
    TimeLimit: seconds()
      .min(1, "must be between 1 and 86400")
      .max(86_400, "must be between 1 and 86400")
      .optional(),
    Record: formBoolean.optional(),
    ...recordingParams,
    ...machineDetectionParams,
    AsyncAmd: formBoolean.optional(),
    AsyncAmdStatusCallback: formUrl.optional(),
    AsyncAmdStatusCallbackMethod: formMethod.optional(),
    CallerId: z.string().optional(),
    CallReason: z.string().optional(),
  }),
);

type CallInput = Omit<NewCall, "direction" | "phoneNumberSid">;

/**
 * The call the parameters ask for. With ApplicationSid the application's voice handlers replace Url, Twiml,
 * Method, FallbackUrl, FallbackMethod, StatusCallback and StatusCallbackMethod, as Twilio ignores those then.
 */
const callInput = (
  ctx: EngineContext,
  params: Record<string, string>,
  body: z.output<typeof createParams>,
): CallInput => ({
  accountSid: params.AccountSid!,
  to: body.To,
  from: body.From,
  ...(body.ApplicationSid
    ? { ...applicationCallHandlers(ctx, params.AccountSid!, body.ApplicationSid), twiml: null }
    : {
        url: body.Url ?? null,
        twiml: body.Twiml ?? null,
        method: body.Method,
        fallbackUrl: body.FallbackUrl ?? null,
        fallbackMethod: body.FallbackMethod,
        statusCallback: body.StatusCallback ?? null,
        statusCallbackMethod: body.StatusCallbackMethod,
      }),
  // Twilio: "If no event is specified, we send the completed status."
  statusCallbackEvents: body.StatusCallbackEvent ?? ["completed"],
  timeout: body.Timeout,
  timeLimit: body.TimeLimit,
  record: body.Record,
  recordingChannels: body.RecordingChannels,
  recordingStatusCallback: body.RecordingStatusCallback ?? null,
  recordingStatusCallbackMethod: body.RecordingStatusCallbackMethod,
  recordingStatusCallbackEvents: body.RecordingStatusCallbackEvent,
  recordingTrack: body.RecordingTrack,
  // Twilio: Trim's "default is `trim-silence`" on a call's create (a recording started later defaults to do-not-trim).
  recordingTrim: body.Trim !== "do-not-trim",
  sendDigits: body.SendDigits ?? null,
  machineDetection: body.MachineDetection ?? null,
  machineDetectionOptions: machineDetectionOptions(body, {
    async: body.AsyncAmd ?? false,
    callback: body.AsyncAmdStatusCallback,
    method: body.AsyncAmdStatusCallbackMethod,
  }),
});

const updateParams = z.lazy(() =>
  z.object({
    Status: z.enum(["canceled", "completed"], { error: "must be canceled or completed" }).optional(),
    Url: formUrl.optional(),
    Method: formMethod.optional(),
    Twiml: z.string().max(4000, "must be at most 4000 characters").optional(),
    FallbackUrl: formUrl.optional(),
    FallbackMethod: formMethod.optional(),
    StatusCallback: formUrl.optional(),
    StatusCallbackMethod: formMethod.optional(),
    TimeLimit: seconds()
      .min(1, "must be between 1 and 86400")
      .max(86_400, "must be between 1 and 86400")
      .optional(),
  }),
);

/** The indexes a call list walks, most selective first; the date filters are tested along the walk. */
const callListIndexes = {
  parent: ["ParentCallSid"],
  to: ["To"],
  from: ["From"],
  accountStatus: ["AccountSid", "Status"],
  account: ["AccountSid"],
};

const listQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    To: z.string().optional(),
    From: z.string().optional(),
    ParentCallSid: z.string().optional(),
    Status: z.enum(callStatuses, { error: `must be one of ${callStatuses.join(", ")}` }).optional(),
    ...dateFilterQuery("StartTime"),
    ...dateFilterQuery("EndTime"),
  }),
);

/**
 * Twilio's codes for call parameters (21201/21213 missing To/From, 21211/21212 invalid, 21205 Url, 21234 an
 * answering machine detection value out of range).
 */
const callErrorCodes = {
  To: 21211,
  From: 21212,
  Url: 21205,
  ApplicationSid: 21218,
  ...machineDetectionErrorCodes,
};

export const callRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "account",
    summary: "Place an outbound call (it starts queued)",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: createParams,
    errorCodes: callErrorCodes,
    missingCodes: { To: 21201, From: 21213 },
    status: 201,
    response: callResource,
    handle({ params, body, services }) {
      const call = placeCall(services.context, callInput(services.context, params, body));
      return twilioJson(201, renderCall(services.calls.start(call)));
    },
    // Twilio test credentials: magic From and To numbers decide; the call is answered, never placed.
    testCredentials({ params, body, services }) {
      return twilioJson(
        201,
        renderCall(placeTestCall(services.context, callInput(services.context, params, body))),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account's calls, newest first",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: listQuery,
    response: z.lazy(() => listSchema("calls", callResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      const given = queryFilters<Call>(query, {
        To: equals((c) => c.to),
        From: equals((c) => c.from),
        ParentCallSid: equals((c) => c.parent_call_sid),
        Status: equals((c) => c.status),
      });
      const started = dateFilter(query, "StartTime");
      const ended = dateFilter(query, "EndTime");
      const records = walkListPage(
        services.context.store.calls,
        callListIndexes,
        {
          AccountSid: accountSid,
          To: query.To,
          From: query.From,
          ParentCallSid: query.ParentCallSid,
          Status: query.Status,
        },
        (c) =>
          c.account_sid === accountSid &&
          given.matches(c) &&
          started.matches(c.start_time ?? c.created_at) &&
          ended.matches(c.end_time),
        query,
      );
      return twilioJson(
        200,
        listEnvelope({
          key: "calls",
          path: accountPath(accountSid, "Calls.json"),
          filters: [...given.echo, ...started.echo, ...ended.echo],
          page: query,
          records,
          render: renderCall,
          sidOf: (c) => c.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary: "Fetch a call",
    auth: { kind: "account", scope: "phone_calls_read" },
    response: callResource,
    handle({ params, request, services }) {
      return twilioRow(200, renderCall, callInPath(services, params, request.path));
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Update a call: Status=canceled or completed, a redirect with Url or Twiml, or its callbacks",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: updateParams,
    errorCodes: { Url: 21205 },
    response: callResource,
    handle({ params, body, request, services }) {
      const call = services.calls.update(callInPath(services, params, request.path), {
        status: body.Status,
        url: body.Url,
        method: body.Method,
        twiml: body.Twiml,
        fallbackUrl: body.FallbackUrl,
        fallbackMethod: body.FallbackMethod,
        statusCallback: body.StatusCallback,
        statusCallbackMethod: body.StatusCallbackMethod,
        timeLimit: body.TimeLimit,
      });
      return twilioJson(200, renderCall(call));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "account",
    summary: "Delete a finished call's record",
    auth: { kind: "account", scope: "phone_calls_write" },
    status: 204,
    handle({ params, request, services }) {
      services.calls.remove(callInPath(services, params, request.path));
      return noContent();
    },
  }),
];
