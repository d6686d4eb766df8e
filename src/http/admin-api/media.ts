// Recording media files, where the account API's media URLs redirect. No auth, as Twilio serves media without it.
import { z } from "zod";
import { found } from "../../domain/found.js";
import { recordingMp3, recordingWav } from "../../engine/recordings/recording-audio.js";
import { defineRoute } from "../route.js";
import { adminPathParams } from "./path-params.js";

/** Twilio serves recordings as `audio/x-wav` and `audio/mpeg`. */
export const mediaTypeOf = { wav: "audio/x-wav", mp3: "audio/mpeg" } as const;

/** Where the account API's recording URLs redirect: this sandbox's own media route. */
export const mediaLocation = z.lazy(() =>
  z
    .string()
    .regex(/^(https?:\/\/[^/]+)?\/__sandbox\/media\/RE[0-9a-f]{32}\.(wav|mp3)$/)
    .describe(
      "The recording's file under /__sandbox/media, on the host the request named (a bare path without one)",
    ),
);

const mediaRoute = (extension: "wav" | "mp3") =>
  defineRoute({
    method: "GET",
    path: `/__sandbox/media/:RecordingSid.${extension}`,
    params: adminPathParams.recording,
    surface: "admin",
    summary: `A recording's audio as ${extension === "wav" ? "8 kHz 16-bit PCM WAV" : "MP3"}, as long as the recording`,
    auth: { kind: "none" },
    contentType: mediaTypeOf[extension],
    async handle({ params, request, services }) {
      const recording = found(services.context.store.recordings.get(params.RecordingSid!), request.path);
      const body = extension === "wav" ? await recordingWav(recording) : await recordingMp3(recording);
      return {
        status: 200,
        headers: {
          "content-type": mediaTypeOf[extension],
          "content-disposition": `inline; filename="${recording.sid}.${extension}"`,
        },
        body,
      };
    },
  });

export const mediaRoutes = [mediaRoute("wav"), mediaRoute("mp3")];
