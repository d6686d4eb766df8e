// Recordings: list (per account and per call), fetch with the latest transcription's fields, media redirects, delete;
// on a live call: start, pause, resume and stop.

import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { ownedBy } from "../../domain/found.js";
import { type Recording, recordingSources, recordingStatuses } from "../../domain/recording.js";
import type { Store } from "../../domain/store.js";
import { transcriptionSegmentSchema } from "../../domain/transcription.js";
import { currentRecording } from "../../engine/calls/call-recording-control.js";
import { deleteRecording } from "../../engine/recordings/recording-removal.js";
import { mediaLocation } from "../admin-api/media.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import type { SandboxRequest, SandboxResponse } from "../types.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { dateFilter, dateFilterQuery } from "./date-filters.js";
import { listEnvelope, listSchema, pagingQuery, walkListPage } from "./paging.js";
import { callInPath } from "./path-call.js";
import { equals, queryFilters } from "./query-filters.js";
import { recordingParams } from "./recording-params.js";

const collection = `${accountBase}/Recordings`;
const instance = `${collection}/:RecordingSid`;
const callCollection = `${accountBase}/Calls/:CallSid/Recordings`;
const callInstance = `${callCollection}/:RecordingSid`;

/** Twilio's recording resource (`api.v2010.account.recording`) plus the spec's track and transcription fields. */
export const recordingResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    api_version: z.string(),
    call_sid: z.string(),
    conference_sid: z.string().nullable(),
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
    uri: z.string(),
    encryption_details: z.null(),
    subresource_uris: z.record(z.string(), z.string()),
    media_url: z.string(),
    track: z.enum(["inbound", "outbound", "both"]),
    transcription_status: z.enum(["in-progress", "completed", "failed"]).nullable(),
    transcription_text: z.string().nullable(),
    transcription_provider: z.string().nullable(),
    transcription_language: z.string().nullable(),
    transcription_segments: z.array(transcriptionSegmentSchema).nullable(),
  }),
);
export type RecordingResource = z.infer<typeof recordingResource>;

/** Scheme and host the client used, so media URLs are absolute as Twilio's are; relative when unknown. */
export function originOf(request: SandboxRequest): string {
  const host = request.headers["x-forwarded-host"] ?? request.headers.host;
  if (!host) return "";
  const proto = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim() ?? "http";
  return `${proto}://${host}`;
}

export function renderRecording(store: Store, recording: Recording, origin: string): RecordingResource {
  const path = accountPath(recording.account_sid, `Recordings/${recording.sid}`);
  const transcription = store.transcriptions.where("recording", recording.sid).at(-1);
  return {
    account_sid: recording.account_sid,
    api_version: apiVersion,
    call_sid: recording.call_sid,
    conference_sid: recording.conference_sid,
    date_created: rfc2822(recording.created_at),
    date_updated: rfc2822(recording.updated_at),
    start_time: rfc2822(recording.start_time),
    duration: recording.duration === null ? null : String(recording.duration),
    sid: recording.sid,
    price: recording.price,
    price_unit: recording.price_unit,
    status: recording.status,
    channels: recording.channels,
    source: recording.source,
    error_code: recording.error_code,
    uri: `${path}.json`,
    encryption_details: null,
    // Twilio also lists add_on_results, which is not served here.
    subresource_uris: { transcriptions: `${path}/Transcriptions.json` },
    // Twilio's media_url has no extension: fetching it gives WAV, `.mp3` gives MP3.
    media_url: `${origin}${path}`,
    track: recording.track,
    transcription_status: transcription?.status ?? null,
    transcription_text: transcription?.text ?? null,
    transcription_provider: transcription?.provider ?? null,
    transcription_language: transcription?.language ?? null,
    transcription_segments: transcription?.segments ?? null,
  };
}

const listQuery = z.lazy(() =>
  z.object({
    ...pagingQuery,
    CallSid: z.string().optional(),
    ConferenceSid: z.string().optional(),
    IncludeSoftDeleted: z.string().optional(),
    ...dateFilterQuery("DateCreated"),
  }),
);

const mediaFormat = z.lazy(() => z.enum(["wav", "mp3"], { error: "must be wav or mp3" }).optional());
const mediaQuery = z.lazy(() => z.object({ format: mediaFormat, Format: mediaFormat }));

function findRecording(services: RouteServices, params: Record<string, string>, path: string): Recording {
  const recording = ownedBy(
    services.context.store.recordings.get(params.RecordingSid!),
    params.AccountSid!,
    path,
  );
  if (params.CallSid && recording.call_sid !== params.CallSid) throw errors.notFound(path);
  return recording;
}

/** Twilio answers a media request with a redirect to the file; here the file lives under `/__sandbox/media`. */
function mediaRedirect(
  recording: Recording,
  format: "wav" | "mp3",
  request: SandboxRequest,
): SandboxResponse {
  return {
    status: 302,
    headers: { location: `${originOf(request)}/__sandbox/media/${recording.sid}.${format}` },
    body: "",
  };
}

/** A recordings list walks the call's bucket when one call is named (in the path or CallSid), else the account's. */
const recordingListIndexes = { call: ["CallSid"], account: ["AccountSid"] };

function listRecordings(
  services: RouteServices,
  request: SandboxRequest,
  accountSid: string,
  callSid: string | undefined,
  path: string,
  query: z.output<typeof listQuery>,
): SandboxResponse {
  const given = queryFilters<Recording>(query, {
    CallSid: equals((r) => r.call_sid),
    ConferenceSid: equals((r) => r.conference_sid),
  });
  const created = dateFilter(query, "DateCreated");
  const records = walkListPage(
    services.context.store.recordings,
    recordingListIndexes,
    { AccountSid: accountSid, CallSid: callSid ?? query.CallSid },
    (r) =>
      r.account_sid === accountSid &&
      (callSid === undefined || r.call_sid === callSid) &&
      given.matches(r) &&
      created.matches(r.created_at),
    query,
  );
  const origin = originOf(request);
  return twilioJson(
    200,
    listEnvelope({
      key: "recordings",
      path: accountPath(accountSid, path),
      filters: [...given.echo, ...created.echo],
      page: query,
      records,
      render: (r) => renderRecording(services.context.store, r, origin),
      sidOf: (r) => r.sid,
    }),
  );
}

const mediaRoutes = (path: string, extension: "wav" | "mp3") =>
  defineRoute({
    method: "GET",
    path: `${path}.${extension}`,
    surface: "account",
    summary: `Download the recording as ${extension.toUpperCase()} (302 to the media file; format= overrides); public unless the account turns media auth on`,
    auth: { kind: "account", scope: "recordings_read", publicMedia: true },
    query: mediaQuery,
    status: 302,
    redirect: {
      status: 302,
      location: mediaLocation,
      description: "The recording's media file (format= picks WAV or MP3)",
    },
    handle({ params, query, request, services }) {
      const recording = findRecording(services, params, request.path);
      return mediaRedirect(recording, query.format ?? query.Format ?? extension, request);
    },
  });

/** GET on an instance: `.json` is the resource; no extension is the media (WAV unless format=mp3), as Twilio. */
const fetchRoute = (path: string) =>
  defineRoute({
    method: "GET",
    path,
    surface: "account",
    summary:
      "Fetch a recording (.json), or its media without an extension (public unless the account turns media auth on)",
    auth: { kind: "account", scope: "recordings_read", publicMedia: true },
    query: z.lazy(() =>
      z.object({ format: mediaFormat, Format: mediaFormat, IncludeSoftDeleted: z.string().optional() }),
    ),
    response: recordingResource,
    redirect: {
      status: 302,
      location: mediaLocation,
      description: "Without the .json suffix: the recording's media file (WAV unless format=mp3)",
    },
    handle({ params, query, request, services }) {
      const recording = findRecording(services, params, request.path);
      if (!request.path.endsWith(".json")) {
        return mediaRedirect(recording, query.format ?? query.Format ?? "wav", request);
      }
      return twilioJson(200, renderRecording(services.context.store, recording, originOf(request)));
    },
  });

const deleteRoute = (path: string) =>
  defineRoute({
    method: "DELETE",
    path,
    surface: "account",
    summary: "Delete a recording, its media and its transcriptions",
    auth: { kind: "account", scope: "recordings_write" },
    status: 204,
    handle({ params, request, services }) {
      deleteRecording(services.context, findRecording(services, params, request.path));
      return noContent();
    },
  });

const startParams = z.lazy(() => z.object(recordingParams));

const updateParams = z.lazy(() =>
  z.object({
    Status: z.enum(["paused", "in-progress", "stopped"], { error: "must be paused, in-progress or stopped" }),
    PauseBehavior: z.enum(["skip", "silence"], { error: "must be skip or silence" }).optional(),
  }),
);

/** A call's recording control: start on a live call, then pause, resume or stop (one resource throughout). */
const controlRoutes = [
  defineRoute({
    method: "POST",
    path: callCollection,
    surface: "account",
    summary:
      "Start recording a call in progress (21220 for any other call): StartCallRecordingAPI, in-progress, with its status callbacks",
    auth: { kind: "account", scope: "recordings_write" },
    body: startParams,
    status: 201,
    response: recordingResource,
    handle({ params, body, request, services }) {
      const call = callInPath(services, params, request.path);
      const recording = services.calls.recordings.start(call.sid, {
        channels: body.RecordingChannels === "dual" ? 2 : 1,
        track: body.RecordingTrack ?? "both",
        trim: body.Trim === "trim-silence",
        statusCallback: body.RecordingStatusCallback ?? null,
        statusCallbackMethod: body.RecordingStatusCallbackMethod ?? "POST",
        // Twilio: "the default is completed".
        statusCallbackEvents: body.RecordingStatusCallbackEvent ?? ["completed"],
      });
      return twilioJson(201, renderRecording(services.context.store, recording, originOf(request)));
    },
  }),
  defineRoute({
    method: "POST",
    path: callInstance,
    surface: "account",
    summary: `Pause, resume or stop a recording of a live call (${currentRecording}: the one running now); stopping completes it`,
    auth: { kind: "account", scope: "recordings_write" },
    body: updateParams,
    response: recordingResource,
    handle({ params, body, request, services }) {
      const call = callInPath(services, params, request.path);
      if (params.RecordingSid !== currentRecording) findRecording(services, params, request.path);
      const recording = services.calls.recordings.update(call.sid, params.RecordingSid!, {
        status: body.Status,
        pauseBehavior: body.PauseBehavior,
      });
      const rendered = renderRecording(services.context.store, recording, originOf(request));
      // Twilio answers a stop with `stopped`; here the recording is completed as it stops (no processing time).
      return twilioJson(200, body.Status === "stopped" ? { ...rendered, status: "stopped" } : rendered);
    },
  }),
];

export const recordingRoutes = [
  defineRoute({
    method: "GET",
    path: collection,
    surface: "account",
    summary: "List the account's recordings, newest first",
    auth: { kind: "account", scope: "recordings_read" },
    query: listQuery,
    response: z.lazy(() => listSchema("recordings", recordingResource)),
    handle({ params, query, request, services }) {
      const accountSid = params.AccountSid!;
      return listRecordings(services, request, accountSid, undefined, "Recordings.json", query);
    },
  }),
  defineRoute({
    method: "GET",
    path: callCollection,
    surface: "account",
    summary: "List one call's recordings, newest first",
    auth: { kind: "account", scope: "recordings_read" },
    query: listQuery,
    response: z.lazy(() => listSchema("recordings", recordingResource)),
    handle({ params, query, request, services }) {
      const accountSid = params.AccountSid!;
      const call = callInPath(services, params, request.path);
      return listRecordings(
        services,
        request,
        accountSid,
        call.sid,
        `Calls/${call.sid}/Recordings.json`,
        query,
      );
    },
  }),
  mediaRoutes(instance, "wav"),
  mediaRoutes(instance, "mp3"),
  fetchRoute(instance),
  deleteRoute(instance),
  mediaRoutes(callInstance, "wav"),
  mediaRoutes(callInstance, "mp3"),
  fetchRoute(callInstance),
  deleteRoute(callInstance),
  ...controlRoutes,
];
