// Conference participants: list, add (a call placed into the room), fetch, mute or hold, and kick.
import { z } from "zod";
import type { Participant } from "../../domain/conference.js";
import { errors } from "../../domain/errors.js";
import { ownedBy } from "../../domain/found.js";
import { placeCall } from "../../engine/calls/place-call.js";
import { conferenceMarkup } from "../../markup/conference-markup.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountPath } from "./base.js";
import {
  callSidToCoach,
  coachedCall,
  conferenceAttributes,
  participantCreate,
} from "./conference-participant-params.js";
import { formBoolean, formMethod, formUrl, notEmulated } from "./form-fields.js";
import { machineDetectionErrorCodes, machineDetectionOptions } from "./machine-detection-params.js";
import { listEnvelope, listSchema, pagingQuery } from "./paging.js";
import { conferencePath, findConference } from "./path-conference.js";
import { equals, queryFilters } from "./query-filters.js";

const participants = `${conferencePath}/Participants`;
const participant = `${participants}/:CallSid`;

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

/** A participant in the room, or one added through the API whose call has not joined yet (`queued`). */
type ParticipantView = Omit<Participant, "status"> & {
  status: z.infer<typeof participantResource>["status"];
};

/** The resource; `coached`: the call the participant coaches, null when it coaches nobody. */
export function renderParticipant(
  p: ParticipantView,
  coached: string | null,
): z.infer<typeof participantResource> {
  return {
    account_sid: p.account_sid,
    call_sid: p.call_sid,
    label: p.label,
    call_sid_to_coach: coached,
    coaching: coached !== null,
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

function findParticipant(services: RouteServices, params: Record<string, string>, path: string): Participant {
  const conference = findConference(services, params, path);
  const found = services.context.store.participants
    .where("conference", conference.sid)
    .find((p) => p.call_sid === params.CallSid || (p.label !== null && p.label === params.CallSid));
  return ownedBy(found, params.AccountSid!, path);
}

const participantListQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    Muted: formBoolean.optional(),
    Hold: formBoolean.optional(),
    Coaching: formBoolean.optional(),
  }),
);

const participantUpdate = z.lazy(() =>
  z.object({
    Muted: formBoolean.optional(),
    Hold: formBoolean.optional(),
    HoldUrl: notEmulated("hold music URLs"),
    AnnounceUrl: formUrl.optional(),
    AnnounceMethod: formMethod.optional(),
    Coaching: formBoolean.optional(),
    CallSidToCoach: callSidToCoach.optional(),
  }),
);

export const conferenceParticipantRoutes = [
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
      const { conferences } = services.calls;
      const given = queryFilters<Participant>(query, {
        Muted: equals((p) => p.muted),
        Hold: equals((p) => p.hold),
        Coaching: equals((p) => conferences.coaching(p) !== null),
      });
      const records = services.context.store.participants
        .where("conference", conference.sid)
        .filter((p) => given.matches(p));
      return twilioJson(
        200,
        listEnvelope({
          key: "participants",
          path: accountPath(conference.account_sid, `Conferences/${conference.sid}/Participants.json`),
          filters: given.echo,
          page: query,
          records,
          render: (p) => renderParticipant(p, conferences.coaching(p)),
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
      // Twilio's 16028 unless the call to coach is in the room now (the room must be in progress).
      if (attributes.coach && !services.calls.conferences.coachable(accountSid, named, attributes.coach)) {
        throw errors.invalidParameter(
          "CallSidToCoach",
          `Participant to be whispered is not present in the conference: ${attributes.coach} is not a call connected to conference ${named} while it is in progress.`,
          16028,
        );
      }
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
        renderParticipant(
          {
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
          },
          attributes.coach ?? null,
        ),
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
      const found = findParticipant(services, params, request.path);
      return twilioJson(200, renderParticipant(found, services.calls.conferences.coaching(found)));
    },
  }),
  defineRoute({
    method: "POST",
    path: participant,
    surface: "account",
    summary:
      "Update a participant: Muted, Hold (with participant-mute/hold callbacks), Coaching and CallSidToCoach, AnnounceUrl",
    auth: { kind: "account", scope: "phone_calls_write" },
    body: participantUpdate,
    response: participantResource,
    handle({ params, body, request, services }) {
      const { conferences } = services.calls;
      const found = findParticipant(services, params, request.path);
      // Coaching first: a refused one (16028, or Coaching=true with no call to coach) changes nothing.
      if (body.Coaching !== undefined || body.CallSidToCoach !== undefined) {
        const already = conferences.coaching(found);
        const coached = coachedCall({
          Coaching: body.Coaching,
          CallSidToCoach:
            body.CallSidToCoach ?? (body.Coaching === true ? (already ?? undefined) : undefined),
        });
        conferences.coach(found, coached);
      }
      const updated = conferences.update(found, { muted: body.Muted, hold: body.Hold });
      // "The URL we call using the `announce_method` for an announcement to the participant" (POST by default).
      if (body.AnnounceUrl) {
        const conference = services.context.store.conferences.get(updated.conference_sid)!;
        conferences.announce(
          conference,
          { url: body.AnnounceUrl, method: body.AnnounceMethod ?? "POST" },
          updated,
        );
      }
      return twilioJson(200, renderParticipant(updated, conferences.coaching(updated)));
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
];
