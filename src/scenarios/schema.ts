// The scenario file format as zod schemas: setup, steps on the virtual clock, and expectations.
import { z } from "zod";
import { callSchema, callStatuses } from "../domain/call.js";
import { ledgerEntrySchema } from "../domain/carrier-records.js";
import { eventSchema } from "../domain/event.js";
import { messageSchema } from "../domain/message.js";
import { recordingSchema, recordingSources } from "../domain/recording.js";
import { transcriptionSchema } from "../domain/transcription.js";
import { listeningVerbs, partyBehaviourSchema } from "../engine/calls/party-behaviour.js";
import { durationField } from "../engine/time/duration.js";

export const e164Field = z
  .string({ error: 'must be an E.164 number in quotes, e.g. "+14155550100" (unquoted, YAML reads a number)' })
  .regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 number such as "+14155550100"');

/** A call's name within the scenario, used by later steps and expectations. */
export const callIdField = z
  .string({ error: "must be a call id such as c1" })
  .regex(/^[A-Za-z][\w-]*$/, "must be a name such as c1 or caller-2 (letters, digits, _ and -)");

/** A URL the sandbox requests: absolute, or a path ("/voice") served by `handlers` or the --target app. */
export const urlField = z
  .string({ error: "must be a URL or a path such as /voice" })
  .refine((v) => v.startsWith("/") || /^https?:\/\/[^\s]+$/.test(v), {
    message: 'must be an absolute http(s) URL or a path starting with "/" (served by handlers or --target)',
  });

/** A WebSocket app's base URL, as `{apps.name}` stands for it in inline markup. */
export const webSocketUrlField = z
  .string({ error: "must be a ws:// or wss:// URL such as ws://127.0.0.1:3002" })
  .refine((v) => /^wss?:\/\/[^\s/?#]+/.test(v) && URL.canParse(v), {
    message: "must be a ws:// or wss:// URL such as ws://127.0.0.1:3002 (the WebSocket server of your agent)",
  });

/** Names an app in `apps` (and in `{apps.name}` placeholders). */
export const appNameField = z
  .string()
  .regex(/^[A-Za-z][\w-]*$/, "must be a name such as echo or menu-agent (letters, digits, _ and -)");

const markupField = z
  .string({ error: "must be call-control markup such as <Response><Say>Hi</Say></Response>" })
  .refine((v) => v.trim().startsWith("<"), { message: "must be markup starting with <Response>" });

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

// ---- setup ----------------------------------------------------------------------------------------

export const accountSetupSchema = z.strictObject({
  /** Which fixture account the scenario acts as (default: the first account of the fixtures). */
  sid: z
    .string()
    .regex(/^AC[0-9a-f]{32}$/, "must be an account sid (AC and 32 hex digits)")
    .optional(),
  status: z
    .enum(["active", "suspended"])
    .optional()
    .describe("`suspended` suspends the account once everything else is set up."),
  balance_cents: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Sets the wallet to this many cents (a top-up or a debit of the difference)."),
  stt_provider: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The account\'s default speech-to-text provider: recordings are then transcribed without transcribe="true".',
    ),
  default_tts_voice: z.string().min(1).optional(),
});

export const numberSetupSchema = z.strictObject({
  number: e164Field.describe(
    "Assigned to the scenario's account: taken from the inventory, or added to it first.",
  ),
  friendly_name: z.string().optional(),
  voice: markupField
    .optional()
    .describe(
      "Inline markup for inbound calls, served by the sandbox (a shortcut for voice_url plus a handler).",
    ),
  voice_url: urlField.optional(),
  voice_method: z.enum(["GET", "POST"]).optional(),
  voice_fallback_url: urlField.optional(),
  status_callback: urlField.optional(),
  sms: markupField
    .optional()
    .describe("Inline markup for inbound SMS (a shortcut for sms_url plus a handler)."),
  sms_url: urlField.optional(),
});

/** One canned answer of an inline handler; the first whose `when` matches the request's parameters is used. */
export const handlerResponseSchema = z.strictObject({
  when: z
    .record(z.string(), scalar)
    .optional()
    .describe(
      'Request parameters that must all be equal (e.g. `{ Digits: "1" }`); absent, it always matches.',
    ),
  markup: markupField.optional(),
  body: z.string().optional().describe("A body that is not markup (e.g. for a status callback)."),
  status: z.number().int().min(100).max(599).optional(),
  content_type: z.string().optional(),
});

/** Markup (always answered), or a list of answers chosen by the request's parameters. */
export const handlerSchema = z.union([markupField, z.array(handlerResponseSchema).min(1)], {
  error: "must be markup, or a list of answers ({ when, markup | body, status })",
});

export const agentSetupSchema = z.strictObject({
  name: z.string().min(1),
  /** Digits the agent is dialled by (default: the next free one). */
  extension: z
    .string()
    .regex(/^\d{2,8}$/, 'must be 2 to 8 digits, in quotes (e.g. "101")')
    .optional(),
  status: z.enum(["online", "offline", "busy", "away", "dnd"]).optional(),
});

export const ringGroupSetupSchema = z.strictObject({
  name: z.string().min(1),
  strategy: z.enum(["simultaneous", "sequential"]).optional(),
  ring_timeout: z.number().int().min(1).max(600).optional().describe("Seconds each ring attempt lasts."),
  members: z.array(z.string().min(1)).min(1).describe("Agents by extension or name, in ring order."),
});

// ---- expectations ---------------------------------------------------------------------------------

type Shape = Record<string, z.ZodType>;

/** "did you mean" for a typo'd field: the known key closest in spelling, when one is close. */
function closestKey(key: string, known: readonly string[]): string | undefined {
  const distance = (a: string, b: string) => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length]!;
  };
  let best: { key: string; d: number } | undefined;
  for (const candidate of known) {
    const d = distance(key, candidate);
    if (!best || d < best.d) best = { key: candidate, d };
  }
  return best && best.d <= Math.max(1, Math.floor(key.length / 3)) ? best.key : undefined;
}

/** A strict object whose unknown keys are named with the closest known one (a typo is a load error). */
function strictFields<T extends Shape>(what: string, shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return undefined;
      return issue.keys
        .map((key) => {
          const near = closestKey(key, known);
          return `unknown field "${key}" of ${what}${near ? ` (did you mean "${near}"?)` : ""}`;
        })
        .join("; ");
    },
  });
}

/** Any value: one schema for every untyped record field (each was two of its own; docs/decisions.md, start-up). */
const anyRecordValue = z.unknown().optional();

/**
 * Fields of a stored record an expectation may name: every field of its domain schema (compared as the
 * record has it), the typed ones given here, and nothing else, so a misspelt field fails when the file loads.
 */
function recordFields<K extends string, T extends Shape>(
  domain: readonly K[],
  typed: T,
): { [key in Exclude<K, keyof T>]: z.ZodOptional<z.ZodUnknown> } & T {
  const shape: Shape = {};
  for (const key of domain) shape[key] = anyRecordValue;
  return { ...shape, ...typed } as { [key in Exclude<K, keyof T>]: z.ZodOptional<z.ZodUnknown> } & T;
}

const countField = z
  .number()
  .int()
  .min(1)
  .optional()
  .describe(
    "This entry stands for exactly this many records, each after the one before (none others match it).",
  );

const callRef = callIdField.optional();

const callFields = recordFields(callSchema.keyof().options, {
  status: z.enum(callStatuses).optional(),
  direction: z.enum(["inbound", "outbound-api", "outbound-dial"]).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  duration: z.number().int().optional(),
  price: z.string().nullable().optional(),
});

const recordingFields = recordFields(recordingSchema.keyof().exclude(["speech"]).options, {
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

const transcriptionFields = recordFields(transcriptionSchema.keyof().options, {
  call: callRef,
  status: z.enum(["in-progress", "completed", "failed"]).optional(),
  text: z.string().nullable().optional(),
  provider: z.string().optional(),
  segments: z.array(segmentExpectation).nullable().optional(),
});

const messageFields = recordFields(messageSchema.keyof().options, {
  call: callRef,
  direction: z.enum(["inbound", "outbound-api", "outbound-call", "outbound-reply"]).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  body: z.string().optional(),
  status: z.string().optional(),
});

/** A request the sandbox made to a customer URL. */
const requestFields = {
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
    .record(z.string(), scalar)
    .optional()
    .describe("Parameters that must be present with these values (others may be present too)."),
};

const heardFields = {
  say: z.string().optional().describe("Text spoken by Say, exactly."),
  play: z.string().optional().describe("A Play URL (absolute, or a path on the handlers base)."),
  digits: z.string().optional().describe("DTMF tones played to the party (Play digits)."),
  beep: z.literal(true).optional().describe("The beep before a Record."),
};
const oneHeard = (h: Record<string, unknown>) =>
  ["say", "play", "digits", "beep"].filter((k) => h[k] !== undefined).length === 1;
const oneHeardMessage = { message: "name exactly one of say, play, digits or beep" };

const ledgerFields = recordFields(ledgerEntrySchema.keyof().options, {
  kind: z.string().optional(),
  category: z.string().optional(),
  amount_cents: z.number().int().optional(),
  balance_cents: z.number().int().optional(),
  call: callRef.describe("The call charged (resource_sid)."),
});

const eventFields = recordFields(eventSchema.keyof().options, {
  type: z.string().optional(),
  call: callRef.describe("The call the event is about (resource_sid)."),
});

const alertFields = {
  at: z.string().optional().describe("Scenario time, e.g. +2.000s."),
  code: z.number().int().optional(),
  level: z.enum(["error", "warning"]).optional(),
  message: z.string().optional(),
  call: callRef,
};

/** A media stream the call opened (`<Connect><Stream>`, `<Start><Stream>` or the Streams API). */
const streamFields = {
  call: callRef,
  sid: z.string().optional(),
  name: z.string().nullable().optional(),
  url: z.string().optional().describe("The WebSocket URL the sandbox connected to."),
  track: z.enum(["inbound_track", "outbound_track", "both_tracks"]).optional(),
  bidirectional: z.boolean().optional().describe("true for <Connect><Stream>."),
  parameters: z
    .record(z.string(), scalar)
    .optional()
    .describe("Custom parameters (<Parameter>) the start message carried (partial)."),
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
const relayFields = {
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
  parameters: z.record(z.string(), scalar).optional(),
  duration: z.number().int().optional().describe("SessionDuration in seconds."),
};

/** One entry of a list: the record's fields plus `count`. */
const listEntry = <T extends Shape>(what: string, fields: T) =>
  strictFields(what, { ...fields, count: countField });

/**
 * A list expectation: `[...]` names records that occur in this order (others may come between);
 * `{ exactly: [...] }` (or `only`) says these are all the records of the kind, in this order.
 */
function listExpectation<E extends z.ZodType>(entry: E, what: string) {
  return z.union(
    [
      z.array(entry),
      z.strictObject({ exactly: z.array(entry).describe(`Every ${what}, in order, and nothing else.`) }),
      z.strictObject({ only: z.array(entry).describe("The same as exactly.") }),
    ],
    { error: `must be a list of ${what} entries, or { exactly: [...] } for all of them and nothing else` },
  );
}

/** An entry of `never`: no record matches it (after one that matches `after`, when given). */
const neverEntry = <T extends Shape>(what: string, fields: T) =>
  strictFields(what, {
    ...fields,
    after: strictFields(what, fields)
      .optional()
      .describe(
        "Only records after the first one that matches this count (e.g. no callback after completed).",
      ),
  });

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
    .record(callIdField, z.array(neverEntry("what was heard", heardFields).refine(oneHeard, oneHeardMessage)))
    .optional()
    .describe("Nothing the call heard matches, e.g. { beep: true }."),
  ledger: z.array(neverEntry("a ledger entry", ledgerFields)).optional(),
  events: z.array(neverEntry("an event", eventFields)).optional(),
  alerts: z.array(neverEntry("an alert", alertFields)).optional(),
  streams: z.array(neverEntry("a media stream", streamFields)).optional(),
  relays: z.array(neverEntry("a ConversationRelay session", relayFields)).optional(),
});

export const expectationSchema = strictFields("expect", {
  calls: z
    .record(callIdField, callExpectationSchema)
    .optional()
    .describe("Final state of the scenario's calls, by id (partial match)."),
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
    .record(callIdField, listExpectation(heardExpectationSchema, "thing heard"))
    .optional()
    .describe("What each call's party heard, in order."),
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
  never: neverSchema.optional().describe("What must not have happened."),
});

// ---- steps ----------------------------------------------------------------------------------------

export const inboundCallSchema = z.strictObject({
  id: callIdField,
  from: e164Field,
  to: e164Field,
  caller_name: z.string().optional(),
  forwarded_from: z.string().optional(),
});

export const placeCallSchema = z
  .strictObject({
    id: callIdField,
    from: e164Field,
    to: z.string().min(1),
    url: urlField.optional(),
    twiml: markupField.optional(),
    method: z.enum(["GET", "POST"]).optional(),
    fallback_url: urlField.optional(),
    status_callback: urlField.optional(),
    status_callback_events: z.array(z.enum(["initiated", "ringing", "answered", "completed"])).optional(),
    record: z.boolean().optional(),
    recording_channels: z.enum(["mono", "dual"]).optional(),
    recording_status_callback: urlField.optional(),
    timeout: z.number().int().min(1).optional().describe("Seconds to let it ring."),
    time_limit: z.number().int().min(1).optional(),
    send_digits: z.string().optional(),
    machine_detection: z
      .enum(["Enable", "DetectMessageEnd"])
      .optional()
      .describe("Answering machine detection; the callee's kind, greeting and beep decide its answer."),
    machine_detection_timeout: z.number().int().min(3).max(59).optional(),
    async_amd: z
      .boolean()
      .optional()
      .describe("Run the markup at once and post the result to async_amd_status_callback."),
    async_amd_status_callback: urlField.optional(),
    callee: partyBehaviourSchema
      .optional()
      .describe(
        "What the called party does: answer, busy, no-answer, failed, decline, and its script (the engine's party format).",
      ),
  })
  .refine((c) => (c.url === undefined) !== (c.twiml === undefined), { message: "give url or twiml (one)" });

export const agentChangeSchema = z.strictObject({
  agent: z.string().min(1).describe("The agent's extension or name."),
  status: z.enum(["online", "offline", "busy", "away", "dnd"]),
});

export const inboundSmsSchema = z.strictObject({
  from: e164Field,
  to: e164Field,
  body: z.string(),
});

/** A request the app (or the carrier) makes to the sandbox's APIs mid-scenario. */
export const apiRequestSchema = z
  .strictObject({
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
    path: z
      .string()
      .regex(/^\//, "must start with /")
      .describe(
        "Under /2010-04-01/Accounts/{account} unless it starts with /2010-04-01, /carrier/ or /__sandbox/; {c1} stands for call c1's sid, {account} for the account's.",
      ),
    form: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
      .optional()
      .describe("Form parameters (account API)."),
    json: z.unknown().optional().describe("A JSON body (carrier and admin APIs)."),
    as: z
      .enum(["account", "carrier", "admin"])
      .optional()
      .describe(
        "Whose credentials: the account's (default), the carrier key (default for /carrier/), admin.",
      ),
  })
  .refine((r) => r.form === undefined || r.json === undefined, { message: "give form or json, not both" });

const callerRef = { call: callIdField };

export const speakSchema = z.strictObject({
  ...callerRef,
  text: z.string().min(1),
  for: durationField.optional().describe("How long the words take (default 400 ms a word)."),
  confidence: z.number().min(0).max(1).optional(),
});
export const pressSchema = z.strictObject({
  ...callerRef,
  digits: z.string().regex(/^[0-9*#A-Dw]+$/, "digits are 0-9, *, #, A-D and w (a half-second wait)"),
  gap: durationField.optional().describe("Time between keys (default 300 ms)."),
});
export const silenceSchema = z.strictObject(callerRef);
export const hangupSchema = z.strictObject(callerRef);
export const expectHeardStepSchema = z.strictObject({
  ...callerRef,
  say: z.string().optional(),
  play: z.string().optional(),
  digits: z.string().optional(),
});

export const stepErrorSchema = z.strictObject({
  status: z.number().int().optional(),
  code: z.union([z.number().int(), z.string()]).optional(),
  message: z.string().optional().describe("Text the error message contains."),
});

export const worldActions = ["call", "place_call", "agent", "sms", "api", "wait", "expect"] as const;
export const callerActions = ["speak", "press", "silence", "hangup", "expect_heard"] as const;
export const stepActions = [...worldActions, ...callerActions] as const;
export type StepAction = (typeof stepActions)[number];

export const stepSchema = z
  .strictObject({
    name: z.string().optional().describe("A label shown in reports."),
    at: durationField.optional().describe("Scenario time this step happens at (from the start), e.g. 1m30s."),
    after: durationField
      .optional()
      .describe(
        "World steps: this long after the previous world step. Caller steps: this long after the call starts listening (default 1s), after on's verb starts, or (hangup) after the caller's previous step ends (default 1s).",
      ),
    on: z
      .union(
        [
          z.strictObject({ verb: z.enum(listeningVerbs), nth: z.number().int().min(1).default(1) }),
          z.strictObject({
            agent: z.literal("talking", { error: 'the agent cue is "talking"' }),
          }),
        ],
        { error: "must be { verb: Gather, nth: 1 } or { agent: talking }" },
      )
      .optional()
      .describe(
        "Caller steps: when the call starts this verb for the nth time, or ({ agent: talking }) in its turn, when the <Connect> app next starts talking (then after, default 1s): the caller cuts in.",
      ),
    expect_error: stepErrorSchema
      .optional()
      .describe("The step is expected to be refused (e.g. a suspended account): the error it must give."),

    call: inboundCallSchema.optional().describe("An inbound call rings one of the account's numbers."),
    place_call: placeCallSchema
      .optional()
      .describe("The app places a call through the account API; callee says how the called party behaves."),
    agent: agentChangeSchema.optional().describe("An agent (name or extension) changes status."),
    sms: inboundSmsSchema.optional().describe("An SMS arrives at one of the account's numbers."),
    api: apiRequestSchema
      .optional()
      .describe(
        "The app (or the carrier) calls the sandbox's API: hang up or redirect a call, send an SMS...",
      ),
    wait: durationField.optional().describe("Time passes."),
    expect: expectationSchema.optional().describe("Checks these expectations at this moment."),

    speak: speakSchema
      .optional()
      .describe("The caller says something (into the next Gather or Record that listens)."),
    press: pressSchema
      .optional()
      .describe("The caller presses keys (into the next Gather or Record that listens)."),
    silence: silenceSchema.optional().describe("The caller stays silent when next asked for input."),
    hangup: hangupSchema
      .optional()
      .describe("The caller hangs up (by default 1s after their previous step ends)."),
    expect_heard: expectHeardStepSchema
      .optional()
      .describe("The call heard this before the caller's next step happened."),
  })
  .superRefine((step, ctx) => {
    const actions = stepActions.filter((a) => step[a] !== undefined);
    if (actions.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message:
          actions.length === 0
            ? `a step needs one action: ${stepActions.join(", ")}`
            : `a step does one thing; this one has ${actions.join(" and ")}`,
      });
      return;
    }
    const action = actions[0]!;
    const caller = (callerActions as readonly string[]).includes(action);
    if (step.on !== undefined && !caller)
      ctx.addIssue({
        code: "custom",
        path: ["on"],
        message: `on is for caller steps (${callerActions.join(", ")})`,
      });
    if (step.at !== undefined && step.after !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["after"],
        message: "a step is timed by at or by after, not both",
      });
    if (step.at !== undefined && step.on !== undefined)
      ctx.addIssue({ code: "custom", path: ["on"], message: "a step is timed by at or by on, not both" });
    if (action === "wait" && (step.at !== undefined || step.after !== undefined))
      ctx.addIssue({ code: "custom", path: ["wait"], message: "wait is itself the timing; drop at/after" });
    if (action === "expect_heard" && (step.at !== undefined || step.after !== undefined || step.on))
      ctx.addIssue({
        code: "custom",
        path: ["expect_heard"],
        message: "expect_heard is checked against the caller's next step; it takes no timing",
      });
    if (step.expect_error !== undefined && !["call", "place_call", "agent", "sms", "api"].includes(action))
      ctx.addIssue({
        code: "custom",
        path: ["expect_error"],
        message: "expect_error is for call, place_call, agent, sms and api steps",
      });
    if (action === "expect_heard") {
      const h = step.expect_heard!;
      if ([h.say, h.play, h.digits].filter((v) => v !== undefined).length !== 1)
        ctx.addIssue({
          code: "custom",
          path: ["expect_heard"],
          message: "name exactly one of say, play or digits",
        });
    }
  });

// ---- the file -------------------------------------------------------------------------------------

/** One scripted answer of the speech-to-text provider. */
export const sttResultSchema = z
  .strictObject({
    outcome: z
      .enum(["completed", "failed"])
      .default("completed")
      .describe("failed: the provider fails (no text, no segments)."),
    calls: z.array(callIdField).optional().describe("Only these calls' recordings (default: every call)."),
    text: z.string().optional().describe("The transcript, one segment a line (spread over the recording)."),
    segments: z
      .array(
        z.strictObject({
          speaker: z.string().min(1),
          text: z.string(),
          start_time: z.number().min(0),
          end_time: z.number().min(0),
        }),
      )
      .min(1)
      .optional()
      .describe("The segments, with speakers and times in seconds."),
  })
  .refine((r) => r.outcome === "completed" || (r.text === undefined && r.segments === undefined), {
    message: "a failed transcription has no text or segments",
  })
  .refine((r) => r.text === undefined || r.segments === undefined, {
    message: "give text or segments, not both",
  });

export const scenarioSchema = z.strictObject({
  name: z
    .string({ error: "every scenario needs a name" })
    .min(1)
    .describe("Shown in reports; unique names read best."),
  description: z.string().optional(),
  skip: z
    .string()
    .min(1)
    .optional()
    .describe('Reported as skipped with this reason instead of running (e.g. "needs inbound SMS").'),
  seed: z
    .union([z.number().int(), z.string().min(1)])
    .optional()
    .describe("Seed for ids (default 1); --seed overrides it."),
  fixtures: z
    .string()
    .min(1)
    .optional()
    .describe("`default` (the packaged fixtures), `empty`, or a fixture file path relative to this file."),
  needs_target: z
    .boolean()
    .optional()
    .describe(
      "Handlers not defined inline go to the app given with --target; without one the scenario is skipped.",
    ),
  timeout: durationField.optional().describe("Most scenario time to play before giving up (default 1h)."),
  snapshot: z
    .boolean()
    .optional()
    .describe(
      "true: the full timeline of every call and message is kept beside the file (<file>.snap) on the first run and compared on later runs; --update-snapshots rewrites it.",
    ),
  allow_alerts: z
    .union([z.literal(true), z.array(z.number().int()).min(1)])
    .optional()
    .describe(
      "Alert codes that may occur without an `alerts` expectation naming them (`true`: any). By default any alert fails the scenario.",
    ),
  apps: z
    .record(appNameField, webSocketUrlField.nullable())
    .default({})
    .describe(
      "WebSocket apps (media stream or ConversationRelay servers) by name: `{apps.name}` in inline markup stands for the URL. null: the run gives it (the apps option); without it the scenario is skipped.",
    ),
  account: accountSetupSchema.optional(),
  numbers: z.array(numberSetupSchema).default([]),
  /** Inline handlers by path, served by the sandbox itself. */
  handlers: z
    .record(
      z.string().regex(/^\/[^\s?#]*$/, 'handler paths start with "/" and have no query, e.g. /menu'),
      handlerSchema,
    )
    .default({}),
  agents: z.array(agentSetupSchema).default([]),
  ring_groups: z.array(ringGroupSetupSchema).default([]),
  parties: z
    .record(z.string(), partyBehaviourSchema)
    .default({})
    .describe("How numbers (or agent extensions) the sandbox calls behave: the engine's party format."),
  transcriptions: z
    .union([sttResultSchema, z.array(sttResultSchema).min(1)])
    .optional()
    .describe(
      "What the speech-to-text provider returns: by default a transcript of what was said; here a failure, or given text or segments (for every call, or the listed ones).",
    ),
  steps: z.array(stepSchema).default([]),
  expect: expectationSchema.optional(),
});

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Step = z.output<typeof stepSchema>;
export type Expectation = z.output<typeof expectationSchema>;
export type RequestExpectation = z.output<typeof requestExpectationSchema>;
export type HandlerResponse = z.output<typeof handlerResponseSchema>;
export type SttResult = z.output<typeof sttResultSchema>;
