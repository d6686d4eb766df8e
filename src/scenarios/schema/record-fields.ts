// Fields an expectation may name of each kind of record: calls, recordings, messages, requests, streams...
import { z } from "zod";
import { callSchema, callStatuses } from "../../domain/call.js";
import { ledgerEntrySchema } from "../../domain/carrier-records.js";
import { eventSchema } from "../../domain/event.js";
import { messageSchema } from "../../domain/message.js";
import { recordingSchema, recordingSources } from "../../domain/recording.js";
import { transcriptionSchema } from "../../domain/transcription.js";
import { durationField } from "../../engine/time/duration.js";
import { callIdField, matchValueField } from "./fields.js";
import { recordFields, strictFields } from "./strict-fields.js";

const callRef = callIdField.optional();

export const callFields = recordFields(callSchema.keyof().options, {
  status: z.enum(callStatuses).optional(),
  direction: z.enum(["inbound", "outbound-api", "outbound-dial"]).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  duration: z.number().int().optional(),
  price: z.string().nullable().optional(),
});

export const recordingFields = recordFields(recordingSchema.keyof().exclude(["speech"]).options, {
  call: callRef,
  source: z.enum(recordingSources).optional(),
  channels: z.number().int().min(1).max(2).optional(),
  status: z.string().optional(),
  duration: z.number().int().optional(),
});

const segmentExpectation = strictFields("a transcription segment", {
  speaker: z.string().optional(),
  text: z.string().optional(),
  start_time: z.number().optional(),
  end_time: z.number().optional(),
});

export const transcriptionFields = recordFields(transcriptionSchema.keyof().options, {
  call: callRef,
  status: z.enum(["in-progress", "completed", "failed"]).optional(),
  text: z.string().nullable().optional(),
  provider: z.string().optional(),
  segments: z.array(segmentExpectation).nullable().optional(),
});

export const messageFields = recordFields(messageSchema.keyof().options, {
  call: callRef,
  direction: z.enum(["inbound", "outbound-api", "outbound-call", "outbound-reply"]).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  body: z.string().optional(),
  status: z.string().optional(),
});

/** A request the sandbox made to a customer URL. */
export const requestFields = {
  url: z
    .string()
    .optional()
    .describe('A path ("/status": on the handlers or --target base) or an absolute URL.'),
  method: z.enum(["GET", "POST"]).optional(),
  kind: z
    .enum([
      "voice-markup",
      "sms-markup",
      "call-status",
      "recording-status",
      "transcription",
      "message-status",
      "stream-status",
      "amd-status",
    ])
    .optional(),
  call: callRef,
  status: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe("HTTP status the receiving app answered with (null: no answer, e.g. a connection error)."),
  params: z
    .record(z.string(), matchValueField)
    .optional()
    .describe(
      "Parameters that must be present with these values (others may be present too); present: sent with any value; absent: not sent; { sid_of: name }: the sid of a call, a named leg, conferences.<name> or queues.<name>.",
    ),
};

export const heardFields = {
  say: z.string().optional().describe("Text spoken by Say, exactly."),
  play: z.string().optional().describe("A Play URL (absolute, or a path on the handlers base)."),
  digits: z.string().optional().describe("DTMF tones played to the party (Play digits)."),
  beep: z.literal(true).optional().describe("The beep before a Record."),
  ringback: z
    .literal(true)
    .optional()
    .describe(
      "The ringback the caller hears while a Dial's legs ring (from the first leg ringing); listed only in lists that name it.",
    ),
  tone: z.string().optional().describe("With ringback: the Dial's ringTone (absent: the Dial named none)."),
};
const heardKinds = ["say", "play", "digits", "beep", "ringback"];
export const oneHeard = (h: Record<string, unknown>) =>
  heardKinds.filter((k) => h[k] !== undefined).length === 1 &&
  (h.tone === undefined || h.ringback !== undefined);
export const oneHeardMessage = {
  message: "name exactly one of say, play, digits, beep or ringback (tone goes with ringback)",
};

export const ledgerFields = recordFields(ledgerEntrySchema.keyof().options, {
  kind: z.string().optional(),
  category: z.string().optional(),
  amount_cents: z.number().int().optional(),
  balance_cents: z.number().int().optional(),
  call: callRef.describe("The call charged (resource_sid)."),
});

export const eventFields = recordFields(eventSchema.keyof().options, {
  type: z.string().optional(),
  call: callRef.describe("The call the event is about (resource_sid)."),
});

export const alertFields = {
  at: z.string().optional().describe("Scenario time, e.g. +2.000s."),
  code: z.number().int().optional(),
  level: z.enum(["error", "warning"]).optional(),
  message: z.string().optional(),
  call: callRef,
};

/** A media stream the call opened (`<Connect><Stream>`, `<Start><Stream>` or the Streams API). */
export const streamFields = {
  call: callRef,
  sid: z.string().optional(),
  name: z.string().nullable().optional(),
  url: z.string().optional().describe("The WebSocket URL the sandbox connected to."),
  track: z.enum(["inbound_track", "outbound_track", "both_tracks"]).optional(),
  bidirectional: z.boolean().optional().describe("true for <Connect><Stream>."),
  parameters: z
    .record(z.string(), matchValueField)
    .optional()
    .describe(
      "Custom parameters (<Parameter>) the start message carried (partial; present and absent work).",
    ),
  sent: z
    .array(z.enum(["connected", "start", "media", "mark", "dtmf", "stop"]))
    .optional()
    .describe("The kinds of message the sandbox sent the app, in the order each was first sent."),
  received: z
    .array(z.enum(["media", "mark", "clear"]))
    .optional()
    .describe("The kinds of message the app sent, in the order each first came."),
  marks: z
    .array(z.string())
    .optional()
    .describe("Marks echoed back to the app once their audio played, in order."),
  dtmf: z.string().optional().describe("The keys the caller pressed, as the app got them."),
  played: durationField
    .optional()
    .describe("How long the app's audio played to the caller, in all (e.g. 1s or 1000)."),
  utterances: z
    .array(durationField)
    .optional()
    .describe("How long each stretch of the app's audio played, in order."),
  cleared: z.number().int().min(0).optional().describe("How many clear messages the app sent."),
  ended_by: z
    .enum(["app", "call", "error"])
    .optional()
    .describe(
      "app: the app closed the socket; call: the sandbox stopped it (hang-up, redirect, <Stop>); error: it failed.",
    ),
  close_code: z
    .number()
    .int()
    .nullable()
    .optional()
    .describe("The app's close code (null: the sandbox closed it)."),
  callbacks: z
    .array(z.enum(["stream-started", "stream-stopped", "stream-error"]))
    .optional()
    .describe("The stream's status callbacks, in order."),
};

/** A ConversationRelay session of the call. */
export const relayFields = {
  call: callRef,
  session_id: z.string().optional(),
  url: z.string().optional(),
  status: z
    .enum(["ended", "completed", "failed"])
    .optional()
    .describe(
      "ended: the app sent end; completed: the socket closed or the call ended; failed: it never opened.",
    ),
  said: z
    .array(z.string())
    .optional()
    .describe(
      "What the agent said, one utterance an entry (the welcome greeting, then the app's text tokens joined up to each last).",
    ),
  prompts: z.array(z.string()).optional().describe("What the caller said, as prompt messages to the app."),
  dtmf: z.string().optional().describe("The keys the app was told of (dtmfDetection)."),
  interrupts: z
    .array(z.string())
    .optional()
    .describe(
      "utteranceUntilInterrupt of each interrupt message: what the agent had said when the caller cut in.",
    ),
  plays: z.array(z.string()).optional().describe("Audio the app had played (play source URLs)."),
  sent_digits: z.string().optional().describe("Digits the app had played to the caller (sendDigits)."),
  languages: z
    .array(z.string())
    .optional()
    .describe("The tts language of each language message from the app, in order."),
  handoff_data: z.string().nullable().optional(),
  parameters: z.record(z.string(), matchValueField).optional(),
  duration: z.number().int().optional().describe("SessionDuration in seconds."),
};
