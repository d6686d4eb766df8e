// Conferences: list and fetch rooms, end one (Status=completed) or announce into it; participants and recordings have their own files.
import { z } from "zod";
import { type Conference, conferenceEndReasons, conferenceStatuses } from "../../domain/conference.js";
import { codes, errors } from "../../domain/errors.js";
import { rfc2822 } from "../format.js";
import { twilioJson, twilioRow } from "../respond.js";
import { defineRoute } from "../route.js";
import { accountPath, apiVersion } from "./base.js";
import { dateFilter, dateFilterQuery } from "./date-filters.js";
import { formMethod, formUrl } from "./form-fields.js";
import { listEnvelope, listSchema, pagingQuery, walkListPage } from "./paging.js";
import { conferencePath, conferencesPath, findConference } from "./path-conference.js";
import { equals, queryFilters } from "./query-filters.js";

/** Twilio's conference resource (`api.v2010.account.conference`). */
export const conferenceResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    api_version: z.string(),
    friendly_name: z.string(),
    region: z.string(),
    sid: z.string(),
    status: z.enum(conferenceStatuses),
    uri: z.string(),
    subresource_uris: z.record(z.string(), z.string()),
    reason_conference_ended: z.enum(conferenceEndReasons).nullable(),
    call_sid_ending_conference: z.string().nullable(),
  }),
);

export function renderConference(conference: Conference): z.infer<typeof conferenceResource> {
  const base = accountPath(conference.account_sid, `Conferences/${conference.sid}`);
  return {
    account_sid: conference.account_sid,
    date_created: rfc2822(conference.created_at),
    date_updated: rfc2822(conference.updated_at),
    api_version: apiVersion,
    friendly_name: conference.friendly_name,
    region: conference.region,
    sid: conference.sid,
    status: conference.status,
    uri: `${base}.json`,
    subresource_uris: {
      participants: `${base}/Participants.json`,
      recordings: `${base}/Recordings.json`,
    },
    reason_conference_ended: conference.reason_conference_ended,
    call_sid_ending_conference: conference.call_sid_ending_conference,
  };
}

const listQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    FriendlyName: z.string().optional(),
    Status: z
      .enum(conferenceStatuses, { error: `must be one of ${conferenceStatuses.join(", ")}` })
      .optional(),
    ...dateFilterQuery("DateCreated"),
    ...dateFilterQuery("DateUpdated"),
  }),
);

export const conferenceRoutes = [
  defineRoute({
    method: "GET",
    path: conferencesPath,
    surface: "account",
    summary: "List the account's conferences, newest first",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: listQuery,
    response: z.lazy(() => listSchema("conferences", conferenceResource)),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      const given = queryFilters<Conference>(query, {
        FriendlyName: equals((c) => c.friendly_name),
        Status: equals((c) => c.status),
      });
      const created = dateFilter(query, "DateCreated");
      const updated = dateFilter(query, "DateUpdated");
      const records = walkListPage(
        services.context.store.conferences,
        { account: ["AccountSid"] },
        { AccountSid: accountSid },
        (c) => given.matches(c) && created.matches(c.created_at) && updated.matches(c.updated_at),
        query,
      );
      return twilioJson(
        200,
        listEnvelope({
          key: "conferences",
          path: accountPath(accountSid, "Conferences.json"),
          filters: [...given.echo, ...created.echo, ...updated.echo],
          page: query,
          records,
          render: renderConference,
          sidOf: (c) => c.sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: conferencePath,
    surface: "account",
    summary: "Fetch a conference",
    auth: { kind: "account", scope: "phone_calls_read" },
    response: conferenceResource,
    handle({ params, request, services }) {
      return twilioRow(200, renderConference, findConference(services, params, request.path));
    },
  }),
  defineRoute({
    method: "POST",
    path: conferencePath,
    surface: "account",
    summary:
      "Update a conference: Status=completed ends it and releases every participant; AnnounceUrl plays markup into the running room",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: z.lazy(() =>
      z.object({
        Status: z.enum(["completed"], { error: "must be completed" }).optional(),
        AnnounceUrl: formUrl.optional(),
        AnnounceMethod: formMethod.optional(),
      }),
    ),
    response: conferenceResource,
    handle({ params, body, request, services }) {
      const conference = findConference(services, params, request.path);
      if (body.Status === "completed")
        return twilioJson(200, renderConference(services.calls.conferences.end(conference)));
      if (body.AnnounceUrl) {
        if (conference.status !== "in-progress") {
          throw errors.invalidParameter(
            "AnnounceUrl",
            `Conference ${conference.sid} is ${conference.status}: announcements play into a conference in progress.`,
            codes.callNotLive,
          );
        }
        // Twilio: "The URL may return an MP3 file, a WAV file, or a TwiML document that contains <Play>,
        // <Say>, <Pause>, or <Redirect> verbs"; AnnounceMethod "defaults to POST".
        services.calls.conferences.announce(conference, {
          url: body.AnnounceUrl,
          method: body.AnnounceMethod ?? "POST",
        });
      }
      return twilioJson(200, renderConference(conference));
    },
  }),
];
