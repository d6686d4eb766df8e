// A number's AssignedAddOns: Twilio lists the Marketplace add-ons assigned to it; the sandbox has none to assign.
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { ownedBy } from "../../domain/found.js";
import { twilioJson } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath } from "./base.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";

const collection = `${accountBase}/IncomingPhoneNumbers/:ResourceSid/AssignedAddOns`;

/** Twilio's assigned add-on (`...incoming_phone_number_assigned_add_on`), for the list's schema. */
const assignedAddOnResource = z.lazy(() =>
  z.object({
    sid: z.string(),
    account_sid: z.string(),
    resource_sid: z.string(),
    friendly_name: z.string(),
    description: z.string(),
    configuration: z.record(z.string(), z.unknown()),
    unique_name: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    uri: z.string(),
    subresource_uris: z.record(z.string(), z.string()),
  }),
);

/** The account's number the path names, or the 404 Twilio answers. */
const numberInPath = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.phoneNumbers.get(params.ResourceSid!), params.AccountSid!, path);

export const assignedAddOnRoutes = [
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the Marketplace add-ons assigned to a number: none (add-ons are not emulated)",
    auth: { kind: "account", scope: "incoming_phone_numbers_read" },
    query: z.lazy(() => z.object(pagingQuery)),
    response: z.lazy(() => listSchema("assigned_add_ons", assignedAddOnResource)),
    handle({ params, query, request, services }) {
      const number = numberInPath(services, params, request.path);
      return twilioJson(
        200,
        listEnvelope({
          key: "assigned_add_ons",
          path: accountPath(params.AccountSid!, `IncomingPhoneNumbers/${number.sid}/AssignedAddOns.json`),
          filters: [],
          page: query,
          records: [] as { sid: string }[],
          render: (addOn) => addOn,
          sidOf: (addOn) => addOn.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: `${collection}/:Sid`,
    surface: "account",
    summary: "Fetch an add-on assigned to a number: none is, so every sid is a 404",
    auth: { kind: "account", scope: "incoming_phone_numbers_read" },
    response: assignedAddOnResource,
    handle({ params, request, services }) {
      numberInPath(services, params, request.path);
      throw errors.notFound(request.path);
    },
  }),
];
