// A conference's recordings, listed newest first, in Twilio's conference recording shape.
import { z } from "zod";
import type { Recording } from "../../domain/recording.js";
import { recordingSources, recordingStatuses } from "../../domain/recording.js";
import { rfc2822 } from "../format.js";
import { twilioJson } from "../respond.js";
import { defineRoute } from "../route.js";
import { accountPath, apiVersion } from "./base.js";
import { dateFilter, dateFilterQuery } from "./date-filters.js";
import { listEnvelope, listSchema, pagingQuery, walkListPage } from "./paging.js";
import { conferencePath, findConference } from "./path-conference.js";

const recordings = `${conferencePath}/Recordings`;

/** Twilio's conference recording resource (`api.v2010.account.conference.conference_recording`). */
export const conferenceRecordingResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    api_version: z.string(),
    call_sid: z.string(),
    conference_sid: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    start_time: z.string(),
    duration: z.string().nullable(),
    sid: z.string(),
    price: z.string().nullable(),
    price_unit: z.string(),
    status: z.enum(recordingStatuses),
    channels: z.number().int(),
    source: z.enum(recordingSources),
    error_code: z.number().int().nullable(),
    encryption_details: z.null(),
    uri: z.string(),
  }),
);

function renderConferenceRecording(r: Recording): z.infer<typeof conferenceRecordingResource> {
  return {
    account_sid: r.account_sid,
    api_version: apiVersion,
    call_sid: r.call_sid,
    conference_sid: r.conference_sid ?? "",
    date_created: rfc2822(r.created_at),
    date_updated: rfc2822(r.updated_at),
    start_time: rfc2822(r.start_time),
    duration: r.duration === null ? null : String(r.duration),
    sid: r.sid,
    price: r.price,
    price_unit: r.price_unit,
    status: r.status,
    channels: r.channels,
    source: r.source,
    error_code: r.error_code,
    encryption_details: null,
    uri: accountPath(r.account_sid, `Conferences/${r.conference_sid}/Recordings/${r.sid}.json`),
  };
}

export const conferenceRecordingRoutes = [
  defineRoute({
    method: "GET",
    path: recordings,
    surface: "account",
    summary: "List a conference's recordings, newest first",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: z.lazy(() => z.object({ ...pagingQuery, ...dateFilterQuery("DateCreated") })),
    response: z.lazy(() => listSchema("recordings", conferenceRecordingResource)),
    handle({ params, query, request, services }) {
      const conference = findConference(services, params, request.path);
      const created = dateFilter(query, "DateCreated");
      const records = walkListPage(
        services.context.store.recordings,
        { conference: ["ConferenceSid"] },
        { ConferenceSid: conference.sid },
        (r) => r.account_sid === conference.account_sid && created.matches(r.created_at),
        query,
      );
      return twilioJson(
        200,
        listEnvelope({
          key: "recordings",
          path: accountPath(conference.account_sid, `Conferences/${conference.sid}/Recordings.json`),
          filters: created.echo,
          page: query,
          records,
          render: renderConferenceRecording,
          sidOf: (r) => r.sid,
        }),
      );
    },
  }),
];
