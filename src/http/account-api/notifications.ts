// Notifications: the alerts calls raised (Twilio's debugger log), the account's and one call's; list and fetch.
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import type { Notice } from "../../engine/calls/call-engine.js";
import { rfc2822 } from "../format.js";
import { twilioJson } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { dateFilter, dateFilterQuery } from "./date-filters.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";
import { callInPath } from "./path-call.js";

const accountCollection = `${accountBase}/Notifications`;
const callCollection = `${accountBase}/Calls/:CallSid/Notifications`;

/** Twilio's notification (`api.v2010.account.notification-instance`; lists leave out the request and response). */
export const notificationResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    api_version: z.string(),
    call_sid: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    error_code: z.string(),
    log: z.enum(["0", "1"]),
    message_date: z.string(),
    message_text: z.string(),
    more_info: z.string(),
    request_method: z.string().nullable(),
    request_url: z.string().nullable(),
    request_variables: z.string().nullable().optional(),
    response_body: z.string().nullable().optional(),
    response_headers: z.string().nullable().optional(),
    sid: z.string(),
    uri: z.string(),
  }),
);
type NotificationResource = z.infer<typeof notificationResource>;

/** Twilio's `log`: "`0` is ERROR, `1` is WARNING". */
const logOf = (notice: Notice) => (notice.level === "error" ? "0" : "1");

/** `base`: the list the resource is under (the account's Notifications, or a call's), without `.json`. */
function renderNotification(notice: Notice, base: string, full: boolean): NotificationResource {
  const accountSid = notice.accountSid!;
  const code = String(notice.code);
  return {
    account_sid: accountSid,
    api_version: apiVersion,
    call_sid: notice.callSid,
    date_created: rfc2822(notice.at),
    date_updated: rfc2822(notice.at),
    error_code: code,
    log: logOf(notice),
    message_date: rfc2822(notice.at),
    // Twilio's message_text is form-encoded: the message, its code and its level.
    message_text: new URLSearchParams({
      Msg: notice.message,
      ErrorCode: code,
      LogLevel: notice.level === "error" ? "ERROR" : "WARN",
    }).toString(),
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    request_method: null,
    request_url: null,
    ...(full ? { request_variables: null, response_body: null, response_headers: null } : {}),
    sid: notice.sid,
    uri: `${base}/${notice.sid}.json`,
  };
}

const listQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    Log: z.enum(["0", "1"], { error: "must be 0 (errors) or 1 (warnings)" }).optional(),
    ...dateFilterQuery("MessageDate"),
  }),
);
type ListQuery = z.output<typeof listQuery>;

/** One page of notifications, newest first, through the Log and MessageDate filters. */
function listNotifications(notices: Notice[], path: string, query: ListQuery) {
  const date = dateFilter(query, "MessageDate");
  const echo: [string, string][] = query.Log === undefined ? [] : [["Log", query.Log]];
  const records = notices
    .filter((n) => (query.Log === undefined || logOf(n) === query.Log) && date.matches(n.at))
    .reverse();
  return twilioJson(
    200,
    listEnvelope({
      key: "notifications",
      path,
      filters: [...echo, ...date.echo],
      page: query,
      records,
      render: (n) => renderNotification(n, path.replace(/\.json$/, ""), false),
      sidOf: (n) => n.sid,
    }),
  );
}

/** The notification the path names, among `notices`; its 404 otherwise. */
function findNotification(notices: Notice[], sid: string | undefined, path: string): Notice {
  const found = notices.find((n) => n.sid === sid);
  if (!found) throw errors.notFound(path);
  return found;
}

const ofAccount = (services: RouteServices, accountSid: string) => services.calls.notifications(accountSid);

export const notificationRoutes = [
  defineRoute({
    method: "GET",
    path: accountCollection,
    surface: "account",
    summary:
      "List the alerts the account's calls raised (markup errors and warnings), newest first (Log, MessageDate filters)",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: listQuery,
    response: z.lazy(() => listSchema("notifications", notificationResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      return listNotifications(
        ofAccount(services, accountSid),
        accountPath(accountSid, "Notifications.json"),
        query,
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: `${accountCollection}/:Sid`,
    surface: "account",
    summary: "Fetch one of the account's notifications",
    auth: { kind: "account", scope: "phone_calls_read" },
    response: notificationResource,
    handle({ params, request, services }) {
      const accountSid = params.AccountSid!;
      const notice = findNotification(ofAccount(services, accountSid), params.Sid, request.path);
      return twilioJson(200, renderNotification(notice, accountPath(accountSid, "Notifications"), true));
    },
  }),
  defineRoute({
    method: "GET",
    path: callCollection,
    surface: "account",
    summary: "List the alerts one call raised, newest first (Log, MessageDate filters)",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: listQuery,
    response: z.lazy(() => listSchema("notifications", notificationResource)),
    handle({ params, query, request, services }) {
      const call = callInPath(services, params, request.path);
      return listNotifications(
        services.calls.notifications(call.account_sid, call.sid),
        accountPath(call.account_sid, `Calls/${call.sid}/Notifications.json`),
        query,
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: `${callCollection}/:Sid`,
    surface: "account",
    summary: "Fetch one of a call's notifications",
    auth: { kind: "account", scope: "phone_calls_read" },
    response: notificationResource,
    handle({ params, request, services }) {
      const call = callInPath(services, params, request.path);
      const notices = services.calls.notifications(call.account_sid, call.sid);
      const notice = findNotification(notices, params.Sid, request.path);
      const base = accountPath(call.account_sid, `Calls/${call.sid}/Notifications`);
      return twilioJson(200, renderNotification(notice, base, true));
    },
  }),
];
