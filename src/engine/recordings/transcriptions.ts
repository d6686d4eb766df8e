// Transcription of recordings: segments from what the simulated parties said, diarized, finished later in sim time.
import type { Recording } from "../../domain/recording.js";
import type { Transcription, TranscriptionSegment } from "../../domain/transcription.js";
import { billTranscription } from "../billing/billing.js";
import { apiVersion } from "../callbacks/voice-params.js";
import { type EngineServices, sendCallback } from "../context/engine-services.js";
import { recordEvent } from "../context/events.js";
import { type EventHandle, eventClass } from "../time/scheduler.js";

/** Provider name on transcriptions the Record verb asks for. */
export const recordVerbProvider = "voice-sandbox";
/** Twilio only transcribes Record recordings up to two minutes long. */
export const recordVerbLimitSeconds = 120;

/** The account's default speech-to-text provider: carrier account metadata `default_stt_provider`. */
export function defaultSttProvider(services: EngineServices, accountSid: string): string | null {
  const value = services.ctx.store.accounts.get(accountSid)?.metadata.default_stt_provider;
  return typeof value === "string" && value !== "" ? value : null;
}

/** Sim time a transcription takes: a quarter of the audio, at least 2 s. */
export function transcriptionDelayMs(recording: Recording): number {
  return Math.max(2000, (recording.duration ?? 0) * 250);
}

/** Segments: agent/customer on dual-channel recordings; mono ones diarized SPEAKER_00, SPEAKER_01 by first voice. */
export function segmentsOf(recording: Recording): TranscriptionSegment[] {
  // An app's audio has no words the sandbox knows: only spoken text is transcribed.
  const spans = recording.speech
    .filter((span) => span.text !== "")
    .sort((a, b) => a.start_ms - b.start_ms || a.channel - b.channel);
  const speakers = new Map<number, string>();
  return spans.map((span) => {
    let speaker: string;
    if (recording.channels === 2) speaker = span.channel === 1 ? "customer" : "agent";
    else {
      if (!speakers.has(span.channel))
        speakers.set(span.channel, `SPEAKER_${String(speakers.size).padStart(2, "0")}`);
      speaker = speakers.get(span.channel)!;
    }
    return { speaker, text: span.text, start_time: span.start_ms / 1000, end_time: span.end_ms / 1000 };
  });
}

export interface TranscriptionRequest {
  provider: string;
  callback: string | null;
  /** Record verb transcription: limited to two minutes (Twilio). */
  limited: boolean;
}

/**
 * What the speech-to-text provider returns, when a test says so instead of transcribing what was said:
 * the text (one segment a line) or the segments themselves.
 */
export interface ProviderResult {
  text?: string | undefined;
  segments?: TranscriptionSegment[] | undefined;
}

/** Segments of a provider result: given ones as they are; text lines spread evenly over the recording. */
export function providerSegments(
  result: ProviderResult,
  recording: Recording | undefined,
): TranscriptionSegment[] {
  if (result.segments) return result.segments;
  const lines = (result.text ?? "").split("\n").filter((line) => line.trim() !== "");
  const seconds = Math.max(lines.length, recording?.duration ?? lines.length);
  const step = seconds / Math.max(lines.length, 1);
  const speaker = recording?.channels === 2 ? "customer" : "SPEAKER_00";
  return lines.map((text, i) => ({
    speaker,
    text,
    start_time: Math.round(i * step * 1000) / 1000,
    end_time: Math.round((i + 1) * step * 1000) / 1000,
  }));
}

export interface TranscriptionControl {
  /** Outcome forced on transcriptions that finish from now on: "fail" makes them fail. */
  forced: "fail" | null;
  /** Scripted provider results by call sid ("*" for every call), used instead of what was said. */
  scripted?: Map<string, ProviderResult>;
  /** Pending completions by transcription sid, so a test can finish one early. */
  pending: Map<string, { handle: EventHandle; limited: boolean }>;
}

export function startTranscription(
  services: EngineServices,
  control: TranscriptionControl,
  recording: Recording,
  request: TranscriptionRequest,
): Transcription {
  const { ctx } = services;
  const now = ctx.clock.now();
  const transcription = ctx.store.transcriptions.insert({
    sid: ctx.ids.mint("TR"),
    account_sid: recording.account_sid,
    recording_sid: recording.sid,
    call_sid: recording.call_sid,
    status: "in-progress",
    text: null,
    segments: null,
    provider: request.provider,
    language: "en-US",
    duration: recording.duration,
    price: null,
    price_unit: "USD",
    callback_url: request.callback,
    callback_method: "POST",
    created_at: now,
    updated_at: now,
  });
  recordEvent(ctx, "transcription.started", transcription.account_sid, "transcription", transcription);
  const handle = services.scheduler.after(
    transcriptionDelayMs(recording),
    eventClass.timer,
    `transcription ${transcription.sid}`,
    () => void completeTranscription(services, control, transcription.sid),
  );
  control.pending.set(transcription.sid, { handle, limited: request.limited });
  return transcription;
}

/**
 * Finishes a pending transcription: completed with text and segments, or failed (forced by a test, no
 * speech, or a Record recording over two minutes). Returns null when it is not pending.
 */
export function completeTranscription(
  services: EngineServices,
  control: TranscriptionControl,
  sid: string,
  outcome?: "completed" | "failed",
  result?: ProviderResult,
): Transcription | null {
  const { ctx } = services;
  const pending = control.pending.get(sid);
  const current = ctx.store.transcriptions.get(sid);
  if (!pending || !current || current.status !== "in-progress") return null;
  control.pending.delete(sid);
  services.scheduler.cancel(pending.handle);
  const recording = ctx.store.recordings.get(current.recording_sid);
  const scripted = result ?? control.scripted?.get(current.call_sid) ?? control.scripted?.get("*");
  const segments = scripted ? providerSegments(scripted, recording) : recording ? segmentsOf(recording) : [];
  const tooLong = pending.limited && (recording?.duration ?? 0) > recordVerbLimitSeconds;
  const fault = outcome ? undefined : ctx.faults?.take("transcription", current.call_sid, ctx.clock.now());
  const status =
    outcome ??
    (fault || control.forced === "fail" || segments.length === 0 || tooLong ? "failed" : "completed");
  const finished = {
    ...current,
    status,
    text: status === "completed" ? segments.map((s) => s.text).join("\n") : null,
    segments: status === "completed" ? segments : null,
    updated_at: ctx.clock.now(),
  };
  // Only a completed transcription is charged, as Twilio bills transcriptions it delivers.
  const transcription = ctx.store.transcriptions.replace({
    ...finished,
    price: status === "completed" ? billTranscription(ctx, finished) : null,
  });
  recordEvent(ctx, `transcription.${status}`, transcription.account_sid, "transcription", transcription);
  if (transcription.callback_url) {
    const call = ctx.store.calls.get(transcription.call_sid);
    const base = `${services.publicBaseUrl()}/2010-04-01/Accounts/${transcription.account_sid}`;
    const params: Record<string, string> = {
      AccountSid: transcription.account_sid,
      ApiVersion: apiVersion,
      CallSid: transcription.call_sid,
      RecordingSid: transcription.recording_sid,
      RecordingUrl: `${base}/Recordings/${transcription.recording_sid}`,
      TranscriptionSid: transcription.sid,
      TranscriptionStatus: status,
      TranscriptionText: transcription.text ?? "",
      TranscriptionUrl: `${base}/Recordings/${transcription.recording_sid}/Transcriptions/${transcription.sid}`,
    };
    if (call) {
      params.CallStatus = call.status;
      params.Direction = call.direction;
      params.From = call.from;
      params.To = call.to;
    }
    // Spec part 6: no segments on a failed transcription.
    if (status === "completed") params.TranscriptionSegments = JSON.stringify(transcription.segments);
    sendCallback(services, {
      kind: "transcription",
      url: transcription.callback_url,
      method: transcription.callback_method,
      params,
      accountSid: transcription.account_sid,
      callSid: transcription.call_sid,
      orderingKey: transcription.call_sid,
    });
  }
  return transcription;
}
