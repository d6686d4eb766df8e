// Deleting recordings and transcriptions from the account API.
import type { Recording } from "../../domain/recording.js";
import type { Transcription } from "../../domain/transcription.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";

/** Removes a recording, its media and its transcriptions (Twilio deletes a recording's transcriptions with it). */
export function deleteRecording(ctx: EngineContext, recording: Recording): void {
  ctx.store.transact(() => {
    for (const transcription of ctx.store.transcriptions.where("recording", recording.sid)) {
      ctx.store.transcriptions.delete(transcription.sid);
    }
    ctx.store.recordings.delete(recording.sid);
    recordEvent(ctx, "recording.deleted", recording.account_sid, "recording", recording);
  });
}

export function deleteTranscription(ctx: EngineContext, transcription: Transcription): void {
  ctx.store.transact(() => {
    ctx.store.transcriptions.delete(transcription.sid);
    recordEvent(ctx, "transcription.deleted", transcription.account_sid, "transcription", transcription);
  });
}
