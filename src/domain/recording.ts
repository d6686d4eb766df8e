// A recording of a call or conference, with the speech it holds (from which audio and transcripts are made).
import { z } from "zod";
import { decimalString, httpMethod, instant, sid } from "./fields.js";

export const recordingSources = [
  "DialVerb",
  "Conference",
  "OutboundAPI",
  "Trunking",
  "RecordVerb",
  "StartCallRecordingAPI",
  "StartConferenceRecordingAPI",
] as const;
export const recordingStatuses = [
  "in-progress",
  "paused",
  "stopped",
  "processing",
  "completed",
  "absent",
  "deleted",
] as const;

/** One utterance inside the recording, relative to its start. Channel 1 is the caller/customer, 2 the agent. */
export const speechSpanSchema = z.object({
  channel: z.number().int().min(1).max(2),
  text: z.string(),
  start_ms: z.number().int().min(0),
  end_ms: z.number().int().min(0),
  /** Audio heard as it was, in place of `text` spoken: base64 mu-law at 8 kHz (an app's audio on a media stream). */
  audio: z.string().optional(),
});
export type SpeechSpan = z.infer<typeof speechSpanSchema>;

export const recordingSchema = z.object({
  sid: sid("RE"),
  account_sid: sid("AC"),
  call_sid: sid("CA"),
  conference_sid: z.string().nullable(),
  source: z.enum(recordingSources),
  channels: z.number().int().min(1).max(2),
  track: z.enum(["inbound", "outbound", "both"]),
  status: z.enum(recordingStatuses),
  start_time: instant,
  /** Whole seconds; null while recording. */
  duration: z.number().int().nullable(),
  speech: z.array(speechSpanSchema),
  price: decimalString.nullable(),
  price_unit: z.string(),
  error_code: z.number().int().nullable(),
  status_callback: z.string().nullable(),
  status_callback_method: httpMethod,
  status_callback_events: z.array(z.string()),
  created_at: instant,
  updated_at: instant,
});
export type Recording = z.infer<typeof recordingSchema>;
