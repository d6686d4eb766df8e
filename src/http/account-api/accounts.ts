// Accounts: fetch, update and list the account and its subaccounts; create subaccounts (master credentials only).
import { z } from "zod";
import type { Account } from "../../domain/account.js";
import { found } from "../../domain/found.js";
import {
  accountsVisibleTo,
  createSubaccount,
  twilioStatusOf,
  updateTwilioAccount,
} from "../../engine/accounts/subaccounts.js";
import { rfc2822 } from "../format.js";
import type { Principal } from "../principal.js";
import { twilioJson, twilioRow } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountPath, apiVersion } from "./base.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";
import { equals, queryFilters } from "./query-filters.js";

const collection = `/${apiVersion}/Accounts`;
const instance = `${collection}/:AccountSid`;

const statuses = ["active", "suspended", "closed"] as const;

/** Twilio's account resource (`api.v2010.account`). */
export const accountResource = z.lazy(() =>
  z.object({
    auth_token: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    friendly_name: z.string(),
    owner_account_sid: z.string(),
    sid: z.string(),
    status: z.enum(statuses),
    subresource_uris: z.record(z.string(), z.string()),
    type: z.enum(["Trial", "Full"]),
    uri: z.string(),
  }),
);

/** The account's collections this sandbox serves (Twilio lists more; those it does not serve are left out). */
const subresources: [string, string][] = [
  ["applications", "Applications"],
  ["available_phone_numbers", "AvailablePhoneNumbers"],
  ["balance", "Balance"],
  ["calls", "Calls"],
  ["conferences", "Conferences"],
  ["incoming_phone_numbers", "IncomingPhoneNumbers"],
  ["keys", "Keys"],
  ["messages", "Messages"],
  ["notifications", "Notifications"],
  ["outgoing_caller_ids", "OutgoingCallerIds"],
  ["queues", "Queues"],
  ["recordings", "Recordings"],
  ["transcriptions", "Transcriptions"],
];

export function renderAccount(account: Account): z.infer<typeof accountResource> {
  return {
    auth_token: account.auth_token,
    date_created: rfc2822(account.created_at),
    date_updated: rfc2822(account.updated_at),
    friendly_name: account.name,
    // Twilio: a subaccount's owner is its parent; a main account owns itself.
    owner_account_sid: account.parent_account_sid ?? account.sid,
    sid: account.sid,
    status: twilioStatusOf(account),
    subresource_uris: Object.fromEntries(
      subresources.map(([key, name]) => [key, accountPath(account.sid, `${name}.json`)]),
    ),
    type: "Full",
    uri: `/${apiVersion}/Accounts/${account.sid}.json`,
  };
}

/** The account the credentials belong to (master credentials: the route's auth already refused the rest). */
function callerOf(services: RouteServices, principal: Principal, path: string): Account {
  const sid = principal.kind === "account" ? principal.accountSid : "";
  return found(services.context.store.accounts.get(sid), path);
}

const friendlyName = z.lazy(() => z.string().max(64, "must be at most 64 characters"));

export const accountRoutes = [
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account of these credentials and its subaccounts (FriendlyName, Status filters)",
    auth: { kind: "account", scope: null },
    query: z.lazy(() =>
      z.object({
        ...pagingQuery,
        FriendlyName: z.string().optional(),
        Status: z.enum(statuses, { error: "must be active, suspended or closed" }).optional(),
      }),
    ),
    response: z.lazy(() => listSchema("accounts", accountResource)),
    handle({ query, principal, request, services }) {
      const caller = callerOf(services, principal, request.path);
      const given = queryFilters<Account>(query, {
        FriendlyName: equals((a) => a.name),
        Status: equals(twilioStatusOf),
      });
      return twilioJson(
        200,
        listEnvelope({
          key: "accounts",
          path: `${collection}.json`,
          filters: given.echo,
          page: query,
          records: accountsVisibleTo(services.context, caller).filter(given.matches),
          render: renderAccount,
          sidOf: (a) => a.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "POST",
    path: collection,
    surface: "account",
    summary: "Create a subaccount of the account of these credentials",
    auth: { kind: "account", scope: null },
    body: z.lazy(() => z.object({ FriendlyName: friendlyName.optional() })),
    status: 201,
    response: accountResource,
    handle({ body, principal, request, services }) {
      const caller = callerOf(services, principal, request.path);
      return twilioJson(201, renderAccount(createSubaccount(services.context, caller, body.FriendlyName)));
    },
  }),
  defineRoute({
    method: "GET",
    path: instance,
    surface: "account",
    summary: "Fetch the account, or one of its subaccounts with the parent's credentials",
    auth: { kind: "account", scope: null },
    response: accountResource,
    handle({ params, request, services }) {
      const account = found(services.context.store.accounts.get(params.AccountSid!), request.path);
      return twilioRow(200, renderAccount, account);
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Rename an account; suspend, reactivate or close a subaccount with its parent's credentials",
    auth: { kind: "account", scope: null },
    body: z.lazy(() =>
      z.object({
        FriendlyName: friendlyName.optional(),
        Status: z.enum(statuses, { error: "must be active, suspended or closed" }).optional(),
      }),
    ),
    response: accountResource,
    handle({ params, body, principal, request, services }) {
      const account = found(services.context.store.accounts.get(params.AccountSid!), request.path);
      const caller = callerOf(services, principal, request.path);
      const updated = updateTwilioAccount(services.context, caller, account, {
        friendlyName: body.FriendlyName,
        status: body.Status,
      });
      return twilioJson(200, renderAccount(updated));
    },
  }),
];
