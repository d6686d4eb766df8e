// Conferences: list and fetch rooms, end one (Status=completed), its participants (mute, hold, kick) and its recordings.
import { z } from "zod";
import { callStatusEvents } from "../../domain/call.js";
import {
  type Conference,
  conferenceEndReasons,
  conferenceStatuses,
  type Participant,
} from "../../domain/conference.js";
import { errors } from "../../domain/errors.js";
import { ownedBy } from "../../domain/found.js";
import type { Recording } from "../../domain/recording.js";
import { recordingSources, recordingStatuses } from "../../domain/recording.js";
import { placeCall } from "../../engine/calls/place-call.js";
import { conferenceMarkup } from "../../markup/conference-markup.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson, twilioRow } from "../respond.js";
import { defineRoute } from "../route.js";
import type { RouteServices } from "../services.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { dateFilter, dateFilterQuery } from "./date-filters.js";
import { formBoolean, formE164, formMethod, formUrl, repeated, seconds } from "./form-fields.js";
import {
  machineDetectionErrorCodes,
  machineDetectionOptions,
  machineDetectionParams,
} from "./machine-detection-params.js";
import { listEnvelope, listSchema, pagingQuery, walkListPage } from "./paging.js";
import { equals, queryFilters } from "./query-filters.js";

const collection = `${accountBase}/Conferences`;
const instance = `${collection}/:ConferenceSid`;
const participants = `${instance}/Participants`;
const participant = `${participants}/:CallSid`;
const recordings = `${instance}/Recordings`;

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

/** Twilio's participant resource (`api.v2010.account.conference.participant`). */
export const participantResource = z.lazy(() =>
  z.object({
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
  }),
);

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

/** A participant in the room, or one added through the API whose call has not joined yet (`queued`). */
type ParticipantView = Omit<Participant, "status"> & {
  status: z.infer<typeof participantResource>["status"];
};

export function renderParticipant(p: ParticipantView): z.infer<typeof participantResource> {
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

const participantListQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    Muted: formBoolean.optional(),
    Hold: formBoolean.optional(),
    Coaching: formBoolean.optional(),
  }),
);

/** Parameters the sandbox does not act on are refused, never silently ignored. */
const notEmulated = (what: string) =>
  z
    .string()
    .refine(() => false, `${what} are not emulated by the sandbox`)
    .optional();

const participantUpdate = z.lazy(() =>
  z.object({
    Muted: formBoolean.optional(),
    Hold: formBoolean.optional(),
    HoldUrl: notEmulated("hold music URLs"),
    AnnounceUrl: notEmulated("announcements"),
    Coaching: notEmulated("coaching"),
    CallSidToCoach: notEmulated("coaching"),
  }),
);

const conferenceCallbackEvent = z.lazy(() =>
  z.enum(["start", "end", "join", "leave", "mute", "hold", "modify", "speaker"], {
    error: "must be start, end, join, leave, mute, hold, modify or speaker",
  }),
);

/** Twilio's Participant create: the call to place, and the `<Conference>` options its leg joins with. */
const participantCreate = z.lazy(() =>
  z.object({
    From: z.string({ error: "is required" }).pipe(formE164),
    To: z.string({ error: "is required" }).pipe(formE164),
    Label: z.string().min(1).max(128, "must be at most 128 characters").optional(),
    StatusCallback: formUrl.optional(),
    StatusCallbackMethod: formMethod.optional(),
    StatusCallbackEvent: repeated(
      z.enum(callStatusEvents, { error: `must be one of ${callStatusEvents.join(", ")}` }),
    ),
    Timeout: seconds().min(5, "must be between 5 and 600").max(600, "must be between 5 and 600").optional(),
    TimeLimit: seconds()
      .min(1, "must be between 1 and 86400")
      .max(86_400, "must be between 1 and 86400")
      .optional(),
    Record: formBoolean.optional(),
    Muted: formBoolean.optional(),
    Beep: z
      .enum(["true", "false", "onEnter", "onExit"], { error: "must be true, false, onEnter or onExit" })
      .optional(),
    StartConferenceOnEnter: formBoolean.optional(),
    EndConferenceOnExit: formBoolean.optional(),
    WaitUrl: z.union([z.literal(""), formUrl]).optional(),
    WaitMethod: formMethod.optional(),
    EarlyMedia: formBoolean.optional(),
    MaxParticipants: z.coerce
      .number({ error: "must be a whole number from 2 to 250" })
      .int("must be a whole number from 2 to 250")
      .min(2, "must be a whole number from 2 to 250")
      .max(250, "must be a whole number from 2 to 250")
      .optional(),
    ConferenceRecord: z
      .enum(["true", "false", "record-from-start", "do-not-record"], {
        error: "must be true, false, record-from-start or do-not-record",
      })
      .optional(),
    ConferenceStatusCallback: formUrl.optional(),
    ConferenceStatusCallbackMethod: formMethod.optional(),
    ConferenceStatusCallbackEvent: repeated(conferenceCallbackEvent),
    ConferenceRecordingStatusCallback: formUrl.optional(),
    ConferenceRecordingStatusCallbackMethod: formMethod.optional(),
    ...machineDetectionParams,
    AmdStatusCallback: formUrl.optional(),
    AmdStatusCallbackMethod: formMethod.optional(),
    Coaching: notEmulated("coaching"),
    CallSidToCoach: notEmulated("coaching"),
  }),
);

/** The `<Conference>` attributes a participant's options stand for (markup/verbs/dial-conference.ts reads them). */
function conferenceAttributes(body: z.output<typeof participantCreate>): Record<string, string | undefined> {
  const bool = (value: boolean | undefined) => (value === undefined ? undefined : String(value));
  const record = body.ConferenceRecord;
  return {
    participantLabel: body.Label,
    muted: bool(body.Muted),
    beep: body.Beep,
    startConferenceOnEnter: bool(body.StartConferenceOnEnter),
    endConferenceOnExit: bool(body.EndConferenceOnExit),
    waitUrl: body.WaitUrl ?? undefined,
    waitMethod: body.WaitMethod,
    maxParticipants: body.MaxParticipants === undefined ? undefined : String(body.MaxParticipants),
    record:
      record === undefined
        ? undefined
        : record === "true" || record === "record-from-start"
          ? "record-from-start"
          : "do-not-record",
    statusCallback: body.ConferenceStatusCallback ?? undefined,
    statusCallbackMethod: body.ConferenceStatusCallbackMethod,
    statusCallbackEvent: body.ConferenceStatusCallbackEvent?.join(" "),
    recordingStatusCallback: body.ConferenceRecordingStatusCallback ?? undefined,
    recordingStatusCallbackMethod: body.ConferenceRecordingStatusCallbackMethod,
  };
}

export const conferenceRoutes = [
  defineRoute({
    method: "GET",
    path: collection,
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
    path: instance,
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
    path: instance,
    surface: "account",
    summary: "Update a conference: Status=completed ends it and releases every participant",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: z.lazy(() =>
      z.object({
        Status: z.enum(["completed"], { error: "must be completed" }).optional(),
        AnnounceUrl: notEmulated("announcements"),
      }),
    ),
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
    response: z.lazy(() => listSchema("participants", participantResource)),
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
    method: "POST",
    path: participants,
    surface: "account",
    summary:
      "Add a participant: a call from From to To that joins the conference (by sid, or by name: created if none runs) once answered",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: participantCreate,
    errorCodes: {
      To: 21211,
      From: 21212,
      StatusCallback: 21609,
      ConferenceStatusCallback: 21609,
      AmdStatusCallback: 21609,
      ...machineDetectionErrorCodes,
    },
    missingCodes: { To: 21201, From: 21213 },
    status: 201,
    response: participantResource,
    handle({ params, body, request, services }) {
      const accountSid = params.AccountSid!;
      // Twilio takes the conference's sid or, for a room that may not run yet, its friendly name.
      const byName = !/^CF[0-9a-f]{32}$/.test(params.ConferenceSid!);
      const named = byName
        ? params.ConferenceSid!
        : findConference(services, params, request.path).friendly_name;
      if (!byName && findConference(services, params, request.path).status === "completed") {
        throw errors.invalidParameter(
          "ConferenceSid",
          `Conference ${params.ConferenceSid} has ended; add participants to a running conference or by name.`,
          21220,
        );
      }
      const attributes = conferenceAttributes(body);
      const twiml = conferenceMarkup(named, attributes);
      // The call and the room are made together (or neither); the engine takes the call after.
      const [call, conference] = services.context.store.transact(() => {
        const placed = placeCall(services.context, {
          accountSid,
          to: body.To,
          from: body.From,
          twiml,
          statusCallback: body.StatusCallback ?? null,
          statusCallbackMethod: body.StatusCallbackMethod,
          statusCallbackEvents: body.StatusCallbackEvent ?? ["completed"],
          timeout: body.Timeout,
          timeLimit: body.TimeLimit,
          record: body.Record,
          // The participant joins as it answers; detection listens meanwhile and reports to AmdStatusCallback.
          machineDetection: body.MachineDetection ?? null,
          machineDetectionOptions: machineDetectionOptions(body, {
            async: true,
            callback: body.AmdStatusCallback,
            method: body.AmdStatusCallbackMethod,
          }),
        });
        const room = services.calls.conferences.open(accountSid, {
          name: named,
          label: body.Label ?? null,
          beep: body.Beep ?? "true",
          startConferenceOnEnter: body.StartConferenceOnEnter ?? true,
          endConferenceOnExit: body.EndConferenceOnExit ?? false,
          muted: body.Muted ?? false,
          maxParticipants: body.MaxParticipants ?? 250,
          record: attributes.record === "record-from-start",
          statusCallback: body.ConferenceStatusCallback ?? null,
          statusCallbackMethod: body.ConferenceStatusCallbackMethod ?? "POST",
          statusCallbackEvents: body.ConferenceStatusCallbackEvent ?? ["start", "end"],
          recordingStatusCallback: body.ConferenceRecordingStatusCallback ?? null,
          recordingStatusCallbackMethod: body.ConferenceRecordingStatusCallbackMethod ?? "POST",
          recordingStatusCallbackEvents: ["completed"],
        });
        return [placed, room] as const;
      });
      const started = services.calls.start(call);
      return twilioJson(
        201,
        renderParticipant({
          account_sid: accountSid,
          conference_sid: conference.sid,
          call_sid: started.sid,
          label: body.Label ?? null,
          muted: body.Muted ?? false,
          hold: false,
          start_conference_on_enter: body.StartConferenceOnEnter ?? true,
          end_conference_on_exit: body.EndConferenceOnExit ?? false,
          beep: body.Beep ?? "true",
          status: "queued",
          created_at: started.created_at,
          updated_at: started.created_at,
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
