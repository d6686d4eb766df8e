// Expectations as zod schemas: final call states, ordered record lists, what was heard, what must never happen.
import { z } from "zod";
import { agentExpectationsSchema } from "./agent-fields.js";
import { legNameField } from "./fields.js";
import {
  alertFields,
  callFields,
  eventFields,
  heardFields,
  ledgerFields,
  messageFields,
  oneHeard,
  oneHeardMessage,
  recordingFields,
  relayFields,
  requestFields,
  streamFields,
  transcriptionFields,
} from "./record-fields.js";
import { listEntry, listExpectation, neverEntry, strictFields } from "./strict-fields.js";

const callEntry = listEntry("a call", callFields);
export const callExpectationSchema = strictFields("a call", {
  ...callFields,
  children: listExpectation(callEntry, "child leg")
    .optional()
    .describe("The call's child legs (from Dial), oldest first."),
});

export const recordingExpectationSchema = listEntry("a recording", recordingFields);
export const transcriptionExpectationSchema = listEntry("a transcription", transcriptionFields);
export const messageExpectationSchema = listEntry("a message", messageFields);
export const requestExpectationSchema = listEntry("a request", requestFields);
export const heardExpectationSchema = listEntry("what was heard", heardFields).refine(
  oneHeard,
  oneHeardMessage,
);
export const ledgerExpectationSchema = listEntry("a ledger entry", ledgerFields);
export const eventExpectationSchema = listEntry("an event", eventFields);
export const alertExpectationSchema = listEntry("an alert", alertFields);
export const streamExpectationSchema = listEntry("a media stream", streamFields);
export const relayExpectationSchema = listEntry("a ConversationRelay session", relayFields);

export const neverSchema = strictFields("never", {
  calls: z
    .array(neverEntry("a call", callFields))
    .optional()
    .describe('No call of the account matches, e.g. { to: "+14155550199" }.'),
  messages: z.array(neverEntry("a message", messageFields)).optional(),
  recordings: z.array(neverEntry("a recording", recordingFields)).optional(),
  transcriptions: z.array(neverEntry("a transcription", transcriptionFields)).optional(),
  webhooks: z
    .array(neverEntry("a request", requestFields))
    .optional()
    .describe("No callback matches, e.g. { url: /status, after: { params: { CallStatus: completed } } }."),
  requests: z.array(neverEntry("a request", requestFields)).optional(),
  heard: z
    .record(
      legNameField,
      z.array(neverEntry("what was heard", heardFields).refine(oneHeard, oneHeardMessage)),
    )
    .optional()
    .describe("Nothing the call (or named leg) heard matches, e.g. { beep: true }."),
  ledger: z.array(neverEntry("a ledger entry", ledgerFields)).optional(),
  events: z.array(neverEntry("an event", eventFields)).optional(),
  alerts: z.array(neverEntry("an alert", alertFields)).optional(),
  streams: z.array(neverEntry("a media stream", streamFields)).optional(),
  relays: z.array(neverEntry("a ConversationRelay session", relayFields)).optional(),
});

export const expectationSchema = strictFields("expect", {
  calls: z
    .record(legNameField, callExpectationSchema)
    .optional()
    .describe(
      "Final state of the scenario's calls by id, or of the first leg to a named party or agent (partial match).",
    ),
  messages: listExpectation(messageExpectationSchema, "message")
    .optional()
    .describe(
      "Lists are ordered partial matches: each entry matches a later record than the entry before it; { exactly: [...] } allows nothing else.",
    ),
  recordings: listExpectation(recordingExpectationSchema, "recording").optional(),
  transcriptions: listExpectation(transcriptionExpectationSchema, "transcription").optional(),
  webhooks: listExpectation(requestExpectationSchema, "callback")
    .optional()
    .describe("Callbacks (status, recording, transcription), in the order they were sent."),
  requests: listExpectation(requestExpectationSchema, "markup request")
    .optional()
    .describe("Markup requests (voice_url, action URLs, sms_url), in the order they were made."),
  heard: z
    .record(legNameField, listExpectation(heardExpectationSchema, "thing heard"))
    .optional()
    .describe(
      "What each call's party heard, in order: a call by id, or the first leg to a named party or agent (a dialled leg's whisper, sendDigits tones).",
    ),
  ledger: listExpectation(ledgerExpectationSchema, "ledger entry")
    .optional()
    .describe("The account's ledger entries, oldest first."),
  balance_cents: z.number().int().optional(),
  events: listExpectation(eventExpectationSchema, "event")
    .optional()
    .describe("Carrier events of the account, oldest first."),
  alerts: listExpectation(alertExpectationSchema, "alert")
    .optional()
    .describe(
      "Engine alerts (markup and fetch errors), oldest first; `[]` means none at all. An alert no entry names fails the scenario unless allow_alerts lists its code.",
    ),
  streams: listExpectation(streamExpectationSchema, "media stream")
    .optional()
    .describe(
      "Media streams, oldest first: what the sandbox sent the app, marks, keys, how long the app's audio played, how it ended, its callbacks.",
    ),
  relays: listExpectation(relayExpectationSchema, "ConversationRelay session")
    .optional()
    .describe(
      "ConversationRelay sessions, oldest first: what the agent said, the caller's prompts and keys, interrupts, how it ended.",
    ),
  agent: agentExpectationsSchema.optional(),
  never: neverSchema.optional().describe("What must not have happened."),
});

export type Expectation = z.output<typeof expectationSchema>;
export type RequestExpectation = z.output<typeof requestExpectationSchema>;
