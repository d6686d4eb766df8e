// Recordings made by Record, Dial and call recording: created in-progress, finished with duration and speech.
import type { Call } from "../../domain/call.js";
import type { Recording, SpeechSpan } from "../../domain/recording.js";
import { billRecording } from "../billing/billing.js";
import { type Callback, type EngineServices, sendCallback } from "../context/engine-services.js";
import { recordEvent } from "../context/events.js";
import { rfc2822 } from "../time/timestamps.js";

export interface NewRecording {
  call: Call;
  source: Recording["source"];
  channels: 1 | 2;
  conferenceSid?: string | null;
  statusCallback: string | null;
  statusCallbackMethod: "GET" | "POST";
  statusCallbackEvents: string[];
  track?: Recording["track"];
}

/** The recording's address without extension, as Twilio's RecordingUrl (media: add .wav or .mp3). */
export function recordingUrl(
  services: EngineServices,
  recording: Pick<Recording, "account_sid" | "sid">,
): string {
  return `${services.publicBaseUrl()}/2010-04-01/Accounts/${recording.account_sid}/Recordings/${recording.sid}`;
}

function callbackParams(services: EngineServices, recording: Recording): Record<string, string> {
  const params: Record<string, string> = {
    AccountSid: recording.account_sid,
    CallSid: recording.call_sid,
    ErrorCode: String(recording.error_code ?? 0),
    RecordingChannels: String(recording.channels),
    RecordingSid: recording.sid,
    RecordingSource: recording.source,
    RecordingStartTime: rfc2822(recording.start_time),
    RecordingStatus: recording.status,
    RecordingTrack: recording.track,
    RecordingUrl: recordingUrl(services, recording),
  };
  if (recording.duration !== null) params.RecordingDuration = String(recording.duration);
  if (recording.conference_sid) params.ConferenceSid = recording.conference_sid;
  return params;
}

function notify(services: EngineServices, recording: Recording, event: string): void {
  if (!recording.status_callback || !recording.status_callback_events.includes(event)) return;
  const callback: Callback = {
    kind: "recording-status",
    url: recording.status_callback,
    method: recording.status_callback_method,
    params: callbackParams(services, recording),
    accountSid: recording.account_sid,
    callSid: recording.call_sid,
    orderingKey: recording.call_sid,
  };
  sendCallback(services, callback);
}

export function startRecording(services: EngineServices, input: NewRecording): Recording {
  const { ctx } = services;
  const now = ctx.clock.now();
  const recording = ctx.store.recordings.insert({
    sid: ctx.ids.mint("RE"),
    account_sid: input.call.account_sid,
    call_sid: input.call.sid,
    conference_sid: input.conferenceSid ?? null,
    source: input.source,
    channels: input.channels,
    track: input.track ?? "both",
    status: "in-progress",
    start_time: now,
    duration: null,
    speech: [],
    price: null,
    price_unit: "USD",
    error_code: null,
    status_callback: input.statusCallback,
    status_callback_method: input.statusCallbackMethod,
    status_callback_events: input.statusCallbackEvents,
    created_at: now,
    updated_at: now,
  });
  recordEvent(ctx, "recording.started", recording.account_sid, "recording", recording);
  notify(services, recording, "in-progress");
  return recording;
}

/**
 * Completes a recording that ends at `endAt` holding `speech` (times relative to its start); `lengthMs` is
 * the audio's length when pauses or trimming made it shorter than the time it ran.
 */
export function finishRecording(
  services: EngineServices,
  sid: string,
  endAt: number,
  speech: SpeechSpan[],
  lengthMs?: number,
): Recording {
  const { ctx } = services;
  const current = ctx.store.recordings.get(sid);
  if (!current) throw new Error(`no recording ${sid}`);
  const length = lengthMs ?? Math.max(0, endAt - current.start_time);
  const completed = {
    ...current,
    status: "completed" as const,
    duration: Math.max(1, Math.ceil(length / 1000)),
    speech: speech.map((span) => ({ ...span, end_ms: Math.min(span.end_ms, length) })),
    updated_at: ctx.clock.now(),
  };
  const recording = ctx.store.recordings.replace({ ...completed, price: billRecording(ctx, completed) });
  recordEvent(ctx, "recording.completed", recording.account_sid, "recording", recording);
  notify(services, recording, "completed");
  return recording;
}

/** Drops a recording that caught nothing (Twilio keeps no empty Record recording); `absent` is reported. */
export function discardRecording(services: EngineServices, sid: string): void {
  const { ctx } = services;
  const current = ctx.store.recordings.get(sid);
  if (!current) return;
  const absent = { ...current, status: "absent" as const, duration: 0 };
  notify(services, absent, "absent");
  ctx.store.recordings.delete(sid);
  recordEvent(ctx, "recording.absent", absent.account_sid, "recording", absent);
}
