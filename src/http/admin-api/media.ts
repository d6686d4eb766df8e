// Recording media files, where the account API's media URLs redirect. No auth, as Twilio serves media without it.
import { found } from "../../domain/found.js";
import { recordingMp3, recordingWav } from "../../engine/recording-audio.js";
import { defineRoute } from "../route.js";

const mediaRoute = (extension: "wav" | "mp3") =>
  defineRoute({
    method: "GET",
    path: `/__sandbox/media/:RecordingSid.${extension}`,
    surface: "admin",
    summary: `A recording's audio as ${extension === "wav" ? "8 kHz 16-bit PCM WAV" : "MP3"}, as long as the recording`,
    auth: { kind: "none" },
    handle({ params, request, services }) {
      const recording = found(services.engine.store.recordings.get(params.RecordingSid!), request.path);
      const body = extension === "wav" ? recordingWav(recording) : recordingMp3(recording);
      return {
        status: 200,
        headers: {
          "content-type": extension === "wav" ? "audio/x-wav" : "audio/mpeg",
          "content-disposition": `inline; filename="${recording.sid}.${extension}"`,
        },
        body,
      };
    },
  });

export const mediaRoutes = [mediaRoute("wav"), mediaRoute("mp3")];
