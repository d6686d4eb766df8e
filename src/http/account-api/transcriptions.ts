// Transcriptions: Twilio's transcription resource for recordings that have one (guarded by the recording scopes).
import { z } from "zod";
import { errors } from "../../domain/errors.js";
import { ownedBy } from "../../domain/found.js";
import { type Transcription, transcriptionStatuses } from "../../domain/transcription.js";
import { deleteTranscription } from "../../engine/recordings/recording-removal.js";
import { rfc2822 } from "../format.js";
import { noContent, twilioJson, twilioRow } from "../respond.js";
import { defineRoute, type RouteServices } from "../route.js";
import { accountBase, accountPath, apiVersion } from "./base.js";
import { listEnvelope, listSchema, pagingQuery, walkListPage } from "./paging.js";

/** Twilio's transcription resource (`api.v2010.account.transcription`). */
export const transcriptionResource = z.lazy(() =>
  z.object({
    account_sid: z.string(),
    api_version: z.string(),
    date_created: z.string(),
    date_updated: z.string(),
    duration: z.string().nullable(),
    price: z.number().nullable(),
    price_unit: z.string(),
    recording_sid: z.string(),
    sid: z.string(),
    status: z.enum(transcriptionStatuses),
    transcription_text: z.string().nullable(),
    type: z.string(),
    uri: z.string(),
  }),
);
export type TranscriptionResource = z.infer<typeof transcriptionResource>;

export function renderTranscription(transcription: Transcription): TranscriptionResource {
  return {
    account_sid: transcription.account_sid,
    api_version: apiVersion,
    date_created: rfc2822(transcription.created_at),
    date_updated: rfc2822(transcription.updated_at),
    duration: transcription.duration === null ? null : String(transcription.duration),
    price: transcription.price === null ? null : Number(transcription.price),
    price_unit: transcription.price_unit,
    recording_sid: transcription.recording_sid,
    sid: transcription.sid,
    status: transcription.status,
    transcription_text: transcription.text,
    type: "fast",
    uri: accountPath(transcription.account_sid, `Transcriptions/${transcription.sid}.json`),
  };
}

const collection = `${accountBase}/Transcriptions`;
const instance = `${collection}/:TranscriptionSid`;
const byRecording = `${accountBase}/Recordings/:RecordingSid/Transcriptions`;
const byRecordingInstance = `${byRecording}/:TranscriptionSid`;

function findTranscription(
  services: RouteServices,
  params: Record<string, string>,
  path: string,
): Transcription {
  const transcription = ownedBy(
    services.context.store.transcriptions.get(params.TranscriptionSid!),
    params.AccountSid!,
    path,
  );
  if (params.RecordingSid && transcription.recording_sid !== params.RecordingSid) throw errors.notFound(path);
  return transcription;
}

/** A recording's transcriptions walk its bucket; the account's list walks the account's. */
const transcriptionListIndexes = { recording: ["RecordingSid"], account: ["AccountSid"] };

const listRoute = (path: string, summary: string) =>
  defineRoute({
    method: "GET",
    path,
    surface: "account",
    summary,
    auth: { kind: "account", scope: "recordings_read" },
    query: z.lazy(() => z.object(pagingQuery)),
    response: z.lazy(() => listSchema("transcriptions", transcriptionResource)),
    handle({ params, query, request, services }) {
      const accountSid = params.AccountSid!;
      const store = services.context.store;
      let recordingSid: string | undefined;
      let listPath = "Transcriptions.json";
      if (params.RecordingSid) {
        recordingSid = ownedBy(store.recordings.get(params.RecordingSid), accountSid, request.path).sid;
        listPath = `Recordings/${recordingSid}/Transcriptions.json`;
      }
      const records = walkListPage(
        store.transcriptions,
        transcriptionListIndexes,
        { AccountSid: accountSid, RecordingSid: recordingSid },
        (t) => t.account_sid === accountSid,
        query,
      );
      return twilioJson(
        200,
        listEnvelope({
          key: "transcriptions",
          path: accountPath(accountSid, listPath),
          filters: [],
          page: query,
          records,
          render: renderTranscription,
          sidOf: (t) => t.sid,
        }),
      );
    },
  });

const fetchRoute = (path: string) =>
  defineRoute({
    method: "GET",
    path,
    surface: "account",
    summary: "Fetch a transcription",
    auth: { kind: "account", scope: "recordings_read" },
    response: transcriptionResource,
    handle({ params, request, services }) {
      return twilioRow(200, renderTranscription, findTranscription(services, params, request.path));
    },
  });

const deleteRoute = (path: string) =>
  defineRoute({
    method: "DELETE",
    path,
    surface: "account",
    summary: "Delete a transcription",
    auth: { kind: "account", scope: "recordings_write" },
    status: 204,
    handle({ params, request, services }) {
      deleteTranscription(services.context, findTranscription(services, params, request.path));
      return noContent();
    },
  });

export const transcriptionRoutes = [
  listRoute(collection, "List the account's transcriptions, newest first"),
  fetchRoute(instance),
  deleteRoute(instance),
  listRoute(byRecording, "List one recording's transcriptions, newest first"),
  fetchRoute(byRecordingInstance),
  deleteRoute(byRecordingInstance),
];
