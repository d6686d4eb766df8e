// A call leg: its parties, lifecycle, handlers, timing and price (account API Call, carrier phone_call).
import { z } from "zod";
import { decimalString, httpMethod, instant, sid } from "./fields.js";

export const callDirections = ["inbound", "outbound-api", "outbound-dial"] as const;
export type CallDirection = (typeof callDirections)[number];

/** Spec part 3; the first four are live, the rest terminal. */
export const callStatuses = [
  "queued",
  "ringing",
  "in-progress",
  "completed",
  "busy",
  "no-answer",
  "failed",
  "canceled",
] as const;
export type CallStatus = (typeof callStatuses)[number];
export const terminalCallStatuses: readonly CallStatus[] = [
  "completed",
  "busy",
  "no-answer",
  "failed",
  "canceled",
];
export const isTerminalCallStatus = (status: CallStatus) => terminalCallStatuses.includes(status);

/** A Voice SDK client as a call's party: `client:` and its identity (Twilio's `client:alice`). */
export const clientAddressPattern = /^client:[^\s:]{1,256}$/;
export const isClientAddress = (address: string) => clientAddressPattern.test(address);

/** A SIP address as a call's party: `sip:user@host`, with an optional port and parameters. */
export const sipAddressPattern = /^sip:[^\s@:;]+@([A-Za-z0-9.-]+)(:\d{1,5})?(;\S*)?$/;
/** The host of a SIP address or URI (`sip:alice@pbx.example.com:5060` -> `pbx.example.com`), lower case. */
export const sipHostOf = (uri: string): string | null =>
  /^(?:sips?:)?(?:[^@\s]+@)?([A-Za-z0-9.-]+)/.exec(uri)?.[1]?.toLowerCase() ?? null;

/** Events a StatusCallbackEvent list may name (Twilio: initiated, ringing, answered, completed). */
export const callStatusEvents = ["initiated", "ringing", "answered", "completed"] as const;
export type CallStatusEvent = (typeof callStatusEvents)[number];

/** What answering machine detection can answer (Twilio's AnsweredBy values). */
export const answeredByValues = [
  "human",
  "machine_start",
  "machine_end_beep",
  "machine_end_silence",
  "machine_end_other",
  "fax",
  "unknown",
] as const;
export type AnsweredBy = (typeof answeredByValues)[number];

/** How a call's answering machine detection runs: Twilio's tuning parameters and AsyncAmd, defaults filled in. */
export const machineDetectionOptionsSchema = z.object({
  /** Seconds before detection gives up with `unknown` (MachineDetectionTimeout, default 30). */
  timeout: z.number().int(),
  /** Milliseconds of speech beyond which the party is a machine (default 2400). */
  speech_threshold: z.number().int(),
  /** Milliseconds of silence that end an utterance (default 1200). */
  speech_end_threshold: z.number().int(),
  /** Milliseconds of initial silence after which the answer is `unknown` (default 5000). */
  silence_timeout: z.number().int(),
  /** AsyncAmd: the markup runs at once and the result goes to `async_callback`. */
  async: z.boolean(),
  async_callback: z.string().nullable(),
  async_callback_method: httpMethod,
});
export type MachineDetectionOptions = z.infer<typeof machineDetectionOptionsSchema>;

export const callSchema = z.object({
  sid: sid("CA"),
  account_sid: sid("AC"),
  parent_call_sid: sid("CA").nullable(),
  direction: z.enum(callDirections),
  from: z.string(),
  to: z.string(),
  status: z.enum(callStatuses),
  /** The account's number on this call (the called number inbound, the caller ID outbound), if it is one. */
  phone_number_sid: z.string().nullable(),
  caller_name: z.string().nullable(),
  forwarded_from: z.string().nullable(),
  /** Where the call's markup comes from: a URL, or inline markup given on create. */
  url: z.string().nullable(),
  method: httpMethod,
  twiml: z.string().nullable(),
  fallback_url: z.string().nullable(),
  fallback_method: httpMethod,
  status_callback: z.string().nullable(),
  status_callback_method: httpMethod,
  status_callback_events: z.array(z.enum(callStatusEvents)),
  /** Seconds to ring before giving up (Twilio default 60 for API calls, 30 for Dial). */
  timeout: z.number().int(),
  /** Longest the call may last, in seconds (Twilio default 14400). */
  time_limit: z.number().int(),
  record: z.boolean(),
  recording_channels: z.enum(["mono", "dual"]),
  recording_status_callback: z.string().nullable(),
  recording_status_callback_method: httpMethod,
  recording_status_callback_events: z.array(z.string()),
  /** Record=true's RecordingTrack and Trim (trim-silence is true); defaults for states saved before them. */
  recording_track: z.enum(["inbound", "outbound", "both"]).default("both"),
  recording_trim: z.boolean().default(false),
  send_digits: z.string().nullable(),
  /** MachineDetection (Enable or DetectMessageEnd); null when the call detects nothing. */
  machine_detection: z.string().nullable(),
  machine_detection_options: machineDetectionOptionsSchema.nullable().default(null),
  answered_by: z.string().nullable(),
  /** Milliseconds from answer to the detection's result (MachineDetectionDuration). */
  machine_detection_duration: z.number().int().nullable().default(null),
  trunk_sid: z.string().nullable(),
  annotation: z.string().nullable(),
  group_sid: z.string().nullable(),
  /** When dialling began (Twilio start_time), when it was answered, and when it ended. */
  start_time: instant.nullable(),
  answered_at: instant.nullable(),
  end_time: instant.nullable(),
  /** Whole seconds from answer to end; null until the call ends. */
  duration: z.number().int().nullable(),
  /** Negative decimal string once charged, e.g. "-0.01300"; null until then. */
  price: decimalString.nullable(),
  price_unit: z.string(),
  created_at: instant,
  updated_at: instant,
});
export type Call = z.infer<typeof callSchema>;
