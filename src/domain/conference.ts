// A conference room of an account and its participants (account API Conferences and Participants).
import { z } from "zod";
import { httpMethod, instant, sid } from "./fields.js";

export const conferenceStatuses = ["init", "in-progress", "completed"] as const;
export type ConferenceStatus = (typeof conferenceStatuses)[number];

/** Twilio's `reason_conference_ended` values. */
export const conferenceEndReasons = [
  "conference-ended-via-api",
  "participant-with-end-conference-on-exit-left",
  "participant-with-end-conference-on-exit-kicked",
  "last-participant-kicked",
  "last-participant-left",
] as const;
export type ConferenceEndReason = (typeof conferenceEndReasons)[number];

/** Status callback events a `<Conference>` may ask for (statusCallbackEvent). */
export const conferenceCallbackEvents = ["start", "end", "join", "leave", "mute", "hold"] as const;

export const conferenceSchema = z.object({
  sid: sid("CF"),
  account_sid: sid("AC"),
  friendly_name: z.string(),
  status: z.enum(conferenceStatuses),
  region: z.string(),
  reason_conference_ended: z.enum(conferenceEndReasons).nullable(),
  call_sid_ending_conference: z.string().nullable(),
  /** Conference-wide settings, taken from the first participant to join (as Twilio does). */
  record: z.boolean(),
  status_callback: z.string().nullable(),
  status_callback_method: httpMethod,
  status_callback_events: z.array(z.string()),
  recording_status_callback: z.string().nullable(),
  recording_status_callback_method: httpMethod,
  recording_status_callback_events: z.array(z.string()),
  /** The conference recording while one runs (record-from-start). */
  recording_sid: z.string().nullable(),
  started_at: instant.nullable(),
  ended_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});
export type Conference = z.infer<typeof conferenceSchema>;

/** A call in a conference; the row goes when the call leaves (Twilio lists only present participants). */
export const participantSchema = z.object({
  account_sid: sid("AC"),
  conference_sid: sid("CF"),
  call_sid: sid("CA"),
  label: z.string().nullable(),
  muted: z.boolean(),
  hold: z.boolean(),
  start_conference_on_enter: z.boolean(),
  end_conference_on_exit: z.boolean(),
  /** `beep`: true, false, onEnter or onExit. */
  beep: z.enum(["true", "false", "onEnter", "onExit"]),
  status: z.enum(["connected", "complete"]),
  created_at: instant,
  updated_at: instant,
});
export type Participant = z.infer<typeof participantSchema>;

export const participantId = (p: Pick<Participant, "conference_sid" | "call_sid">) =>
  `${p.conference_sid}/${p.call_sid}`;
