// Conferences: list and fetch rooms, end one (Status=completed), its participants (mute, hold, kick) and its recordings.
import { z } from "zod";
import {
  type Conference,
  conferenceEndReasons,
  conferenceStatuses,
  type Participant,
} from "../../domain/conference.js";
import { ownedBy } from "../../domain/found.js";
import type { Recording } from "../../domain/recording.js";
import { recordingSources, recordingStatuses } from "../../domain/recording.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson } from "../respond.js";
import { defineRoute } from "../route.js";
import type { RouteServices } from "../services.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { dateFilter, dateFilterQuery } from "./date-filters.js";
import { formBoolean } from "./form-fields.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";
import { equals, queryFilters } from "./query-filters.js";

const collection = `${accountBase}/Conferences`;
const instance = `${collection}/:ConferenceSid`;
const participants = `${instance}/Participants`;
const participant = `${participants}/:CallSid`;
const recordings = `${instance}/Recordings`;

/** Twilio's conference resource (`api.v2010.account.conference`). */
export const conferenceResource = z.object({
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
});

/** Twilio's participant resource (`api.v2010.account.conference.participant`). */
export const participantResource = z.object({
  account_sid: z.string(),
  call_sid: z.string(),
  label: z.string().nullable(),
  call_sid_to_coach: z.string().nullable(),
  coaching: z.boolean(),
  conference_sid: z.string(),
  date_created: z.string(),
  date_updated: z.string(),
  end_conference_on_exit: z.boolean(),
  muted: z.boolean(),
  hold: z.boolean(),
  start_conference_on_enter: z.boolean(),
  status: z.enum(["queued", "connecting", "ringing", "connected", "complete", "failed"]),
  queue_time: z.string(),
  uri: z.string(),
});

/** Twilio's conference recording resource (`api.v2010.account.conference.conference_recording`). */
export const conferenceRecordingResource = z.object({
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
});

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

export function renderParticipant(p: Participant): z.infer<typeof participantResource> {
  return {
    account_sid: p.account_sid,
    call_sid: p.call_sid,
    label: p.label,
    call_sid_to_coach: null,
    coaching: false,
    conference_sid: p.conference_sid,
    date_created: rfc2822(p.created_at),
    date_updated: rfc2822(p.updated_at),
    end_conference_on_exit: p.end_conference_on_exit,
    muted: p.muted,
    hold: p.hold,
    start_conference_on_enter: p.start_conference_on_enter,
    status: p.status,
    queue_time: "0",
    uri: accountPath(p.account_sid, `Conferences/${p.conference_sid}/Participants/${p.call_sid}.json`),
  };
}

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

const findConference = (services: RouteServices, params: Record<string, string>, path: string) =>
  ownedBy(services.context.store.conferences.get(params.ConferenceSid!), params.AccountSid!, path);

function findParticipant(services: RouteServices, params: Record<string, string>, path: string): Participant {
  const conference = findConference(services, params, path);
  const found = services.context.store.participants
    .where("conference", conference.sid)
    .find((p) => p.call_sid === params.CallSid || (p.label !== null && p.label === params.CallSid));
  return ownedBy(found, params.AccountSid!, path);
}

const listQuery = z.object({
  ...pagingQuery,
  FriendlyName: z.string().optional(),
  Status: z.enum(conferenceStatuses, { error: `must be one of ${conferenceStatuses.join(", ")}` }).optional(),
  ...dateFilterQuery("DateCreated"),
  ...dateFilterQuery("DateUpdated"),
});

const participantListQuery = z.object({
  ...pagingQuery,
  Muted: formBoolean.optional(),
  Hold: formBoolean.optional(),
  Coaching: formBoolean.optional(),
});

/** Parameters the sandbox does not act on are refused, never silently ignored. */
const notEmulated = (what: string) =>
  z
    .string()
    .refine(() => false, `${what} are not emulated by the sandbox`)
    .optional();

const participantUpdate = z.object({
  Muted: formBoolean.optional(),
  Hold: formBoolean.optional(),
  HoldUrl: notEmulated("hold music URLs"),
  AnnounceUrl: notEmulated("announcements"),
  Coaching: notEmulated("coaching"),
  CallSidToCoach: notEmulated("coaching"),
});

export const conferenceRoutes = [
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account's conferences, newest first",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: listQuery,
    response: listSchema("conferences", conferenceResource),
    handle({ params, query, services }) {
      const accountSid = params.AccountSid!;
      const given = queryFilters<Conference>(query, {
        FriendlyName: equals((c) => c.friendly_name),
        Status: equals((c) => c.status),
      });
      const created = dateFilter(query, "DateCreated");
      const updated = dateFilter(query, "DateUpdated");
      const records = services.context.store.conferences
        .where("account", accountSid)
        .filter((c) => given.matches(c) && created.matches(c.created_at) && updated.matches(c.updated_at))
        .reverse();
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
    path: instance,
    surface: "account",
    summary: "Fetch a conference",
    auth: { kind: "account", scope: "phone_calls_read" },
    response: conferenceResource,
    handle({ params, request, services }) {
      return twilioJson(200, renderConference(findConference(services, params, request.path)));
    },
  }),
  defineRoute({
    method: "POST",
    path: instance,
    surface: "account",
    summary: "Update a conference: Status=completed ends it and releases every participant",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: z.object({
      Status: z.enum(["completed"], { error: "must be completed" }).optional(),
      AnnounceUrl: notEmulated("announcements"),
    }),
    response: conferenceResource,
    handle({ params, body, request, services }) {
      const conference = findConference(services, params, request.path);
      const updated = body.Status === "completed" ? services.calls.conferences.end(conference) : conference;
      return twilioJson(200, renderConference(updated));
    },
  }),
  defineRoute({
    method: "GET",
    path: participants,
    surface: "account",
    summary: "List the participants in a conference now (those who left are gone)",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: participantListQuery,
    response: listSchema("participants", participantResource),
    handle({ params, query, request, services }) {
      const conference = findConference(services, params, request.path);
      const given = queryFilters<Participant>(query, {
        Muted: equals((p) => p.muted),
        Hold: equals((p) => p.hold),
      });
      // Coaching=true lists coaches, and the sandbox has none.
      const records = services.context.store.participants
        .where("conference", conference.sid)
        .filter((p) => given.matches(p) && query.Coaching !== true);
      return twilioJson(
        200,
        listEnvelope({
          key: "participants",
          path: accountPath(conference.account_sid, `Conferences/${conference.sid}/Participants.json`),
          filters: given.echo,
          page: query,
          records,
          render: renderParticipant,
          sidOf: (p) => p.call_sid,
        }),
      );
    },
  }),
  defineRoute({
    method: "GET",
    path: participant,
    surface: "account",
    summary: "Fetch a participant by its CallSid",
    auth: { kind: "account", scope: "phone_calls_read" },
    response: participantResource,
    handle({ params, request, services }) {
      return twilioJson(200, renderParticipant(findParticipant(services, params, request.path)));
    },
  }),
  defineRoute({
    method: "POST",
    path: participant,
    surface: "account",
    summary: "Update a participant: Muted, Hold (with participant-mute/hold callbacks)",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: participantUpdate,
    response: participantResource,
    handle({ params, body, request, services }) {
      const found = findParticipant(services, params, request.path);
      const updated = services.calls.conferences.update(found, { muted: body.Muted, hold: body.Hold });
      return twilioJson(200, renderParticipant(updated));
    },
  }),
  defineRoute({
    method: "DELETE",
    path: participant,
    surface: "account",
    summary: "Kick a participant: its call leaves the conference and moves on past its Dial",
    auth: { kind: "account", scope: "phone_calls_write" },
    status: 204,
    handle({ params, request, services }) {
      services.calls.conferences.kick(findParticipant(services, params, request.path));
      return noContent();
    },
  }),
  defineRoute({
    method: "GET",
    path: recordings,
    surface: "account",
    summary: "List a conference's recordings, newest first",
    auth: { kind: "account", scope: "phone_calls_read" },
    query: z.object({ ...pagingQuery, ...dateFilterQuery("DateCreated") }),
    response: listSchema("recordings", conferenceRecordingResource),
    handle({ params, query, request, services }) {
      const conference = findConference(services, params, request.path);
      const created = dateFilter(query, "DateCreated");
      const records = services.context.store.recordings
        .where("account", conference.account_sid)
        .filter((r) => r.conference_sid === conference.sid && created.matches(r.created_at))
        .reverse();
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
