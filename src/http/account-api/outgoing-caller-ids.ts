// Outgoing caller IDs: validation requests (answered with a code, verified at once), list, fetch, rename, delete.
import { z } from "zod";
import { ownedBy } from "../../domain/found.js";
import type { OutgoingCallerId } from "../../domain/outgoing-caller-id.js";
import {
  deleteCallerId,
  renameCallerId,
  requestValidation,
} from "../../engine/accounts/outgoing-caller-ids.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson, twilioRow } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath } from "./base.js";
import { formE164, formMethod, formUrl } from "./form-fields.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";
import { equals, queryFilters } from "./query-filters.js";

const collection = `${accountBase}/OutgoingCallerIds`;
const instance = `${collection}/:Sid`;

/** Twilio's outgoing caller ID (`api.v2010.account.outgoing_caller_id`). */
export const outgoingCallerIdResource = z.lazy(() =>
  z.object({
    sid: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    friendly_name: z.string(),
    account_sid: z.string(),
    phone_number: z.string(),
    uri: z.string(),
  }),
);

/** Twilio's answer to a validation request (`api.v2010.account.validation_request`). */
export const validationRequestResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    call_sid: z.string().nullable(),
    friendly_name: z.string(),
    phone_number: z.string(),
    validation_code: z.string(),
  }),
);

function renderCallerId(callerId: OutgoingCallerId): z.infer<typeof outgoingCallerIdResource> {
  return {
    sid: callerId.sid,
    date_created: rfc2822(callerId.created_at),
    date_updated: rfc2822(callerId.updated_at),
    friendly_name: callerId.friendly_name,
    account_sid: callerId.account_sid,
    phone_number: callerId.phone_number,
    uri: accountPath(callerId.account_sid, `OutgoingCallerIds/${callerId.sid}.json`),
  };
}

const findCallerId = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.outgoingCallerIds.get(params.Sid!), params.AccountSid!, path);

const friendlyName = z.lazy(() => z.string().max(64, "must be at most 64 characters"));

export const outgoingCallerIdRoutes = [
  defineRoute({
    method: "POST",
    path: collection,
    surface: "account",
    summary:
      "Request validation of a caller ID: answered with the validation code; the simulated owner keys it in, so the number is verified at once",
    auth: { kind: "account", scope: "incoming_phone_numbers_write" },
    body: z.lazy(() =>
      z.object({
        PhoneNumber: formE164,
        FriendlyName: friendlyName.optional(),
        CallDelay: z.coerce
          .number({ error: "must be a whole number of seconds" })
          .int("must be a whole number of seconds")
          .min(0, "must be between 0 and 60")
          .max(60, "must be between 0 and 60")
          .optional(),
        Extension: z
          .string()
          .regex(/^[0-9#*w]*$/, "must be digits, # and * (w waits half a second)")
          .optional(),
        StatusCallback: formUrl.optional(),
        StatusCallbackMethod: formMethod.optional(),
      }),
    ),
    errorCodes: { PhoneNumber: 21401 },
    missingCodes: { PhoneNumber: 21401 },
    response: validationRequestResource,
    handle({ params, body, services }) {
      const { callerId, validationCode } = requestValidation(services.context, params.AccountSid!, {
        phoneNumber: body.PhoneNumber,
        friendlyName: body.FriendlyName,
      });
      return twilioJson(200, {
        account_sid: callerId.account_sid,
        call_sid: null,
        friendly_name: callerId.friendly_name,
        phone_number: callerId.phone_number,
        validation_code: validationCode,
      });
    },
  }),
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account's verified caller IDs, oldest first (PhoneNumber, FriendlyName filters)",
    auth: { kind: "account", scope: "incoming_phone_numbers_read" },
    query: z.lazy(() =>
      z.object({
        ...pagingQuery,
        PhoneNumber: z.string().optional(),
        FriendlyName: z.string().optional(),
      }),
    ),
    response: z.lazy(() => listSchema("outgoing_caller_ids", outgoingCallerIdResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      const given = queryFilters<OutgoingCallerId>(query, {
        PhoneNumber: equals((c) => c.phone_number),
        FriendlyName: equals((c) => c.friendly_name),
      });
      return twilioJson(
        200,
        listEnvelope({
          key: "outgoing_caller_ids",
          path: accountPath(accountSid, "OutgoingCallerIds.json"),
          filters: given.echo,
          page: query,
          records: services.context.store.outgoingCallerIds
            .where("account", accountSid)
            .filter(given.matches),
          render: renderCallerId,
          sidOf: (c) => c.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary: "Fetch a verified caller ID",
    auth: { kind: "account", scope: "incoming_phone_numbers_read" },
    response: outgoingCallerIdResource,
    handle({ params, request, services }) {
      return twilioRow(200, renderCallerId, findCallerId(services, params, request.path));
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Rename a verified caller ID",
    auth: { kind: "account", scope: "incoming_phone_numbers_write" },
    body: z.lazy(() => z.object({ FriendlyName: friendlyName.optional() })),
    response: outgoingCallerIdResource,
    handle({ params, body, request, services }) {
      const callerId = findCallerId(services, params, request.path);
      const renamed =
        body.FriendlyName === undefined
          ? callerId
          : renameCallerId(services.context, callerId, body.FriendlyName);
      return twilioJson(200, renderCallerId(renamed));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: instance,
    surface: "account",
    summary: "Delete a verified caller ID (calls may no longer use it as From)",
    auth: { kind: "account", scope: "incoming_phone_numbers_write" },
    status: 204,
    handle({ params, request, services }) {
      deleteCallerId(services.context, findCallerId(services, params, request.path));
      return noContent();
    },
  }),
];
