// A transcription of a recording: text, diarized segments, provider and outcome.
import { z } from "zod";
import { decimalString, httpMethod, instant, sid } from "./fields.js";

export const transcriptionStatuses = ["in-progress", "completed", "failed"] as const;

/** Spec part 2: speakers are agent/customer for dual-channel recordings, SPEAKER_00/SPEAKER_01 for mono. */
export const transcriptionSegmentSchema = z.object({
  speaker: z.string(),
  text: z.string(),
  start_time: z.number(),
  end_time: z.number(),
});
export type TranscriptionSegment = z.infer<typeof transcriptionSegmentSchema>;

export const transcriptionSchema = z.object({
  sid: sid("TR"),
  account_sid: sid("AC"),
  recording_sid: sid("RE"),
  call_sid: sid("CA"),
  status: z.enum(transcriptionStatuses),
  text: z.string().nullable(),
  segments: z.array(transcriptionSegmentSchema).nullable(),
  provider: z.string(),
  language: z.string(),
  duration: z.number().int().nullable(),
  price: decimalString.nullable(),
  price_unit: z.string(),
  callback_url: z.string().nullable(),
  callback_method: httpMethod,
  created_at: instant,
  updated_at: instant,
});
export type Transcription = z.infer<typeof transcriptionSchema>;
