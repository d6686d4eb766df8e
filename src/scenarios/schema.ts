// The scenario file format as zod schemas: setup, steps on the virtual clock, and expectations.
import { z } from "zod";
import { callStatuses } from "../domain/call.js";
import { recordingSources } from "../domain/recording.js";
import { parseDuration } from "../engine/duration.js";
import { listeningVerbs, partyBehaviourSchema } from "../engine/party-behaviour.js";

/** Durations as people write them: "250ms", "30s", "1m30s", "2h", or a number of milliseconds. */
export const durationField = z
  .union([z.string(), z.number()], { error: 'must be a duration such as "30s", "1m30s" or 250 (ms)' })
  .transform((value, ctx) => {
    try {
      return parseDuration(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

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
  /** `suspended` suspends the account once everything else is set up. */
  status: z.enum(["active", "suspended"]).optional(),
  /** Sets the wallet to this many cents (a top-up or a debit of the difference). */
  balance_cents: z.number().int().min(0).optional(),
  /** The account's default speech-to-text provider: recordings are then transcribed without transcribe="true". */
  stt_provider: z.string().min(1).optional(),
  default_tts_voice: z.string().min(1).optional(),
});

export const numberSetupSchema = z.strictObject({
  /** Assigned to the scenario's account: taken from the inventory, or added to it first. */
  number: e164Field,
  friendly_name: z.string().optional(),
  /** Inline markup for inbound calls, served by the sandbox (a shortcut for voice_url plus a handler). */
  voice: markupField.optional(),
  voice_url: urlField.optional(),
  voice_method: z.enum(["GET", "POST"]).optional(),
  voice_fallback_url: urlField.optional(),
  status_callback: urlField.optional(),
  /** Inline markup for inbound SMS (a shortcut for sms_url plus a handler). */
  sms: markupField.optional(),
  sms_url: urlField.optional(),
});

/** One canned answer of an inline handler; the first whose `when` matches the request's parameters is used. */
export const handlerResponseSchema = z.strictObject({
  /** Request parameters that must all be equal (e.g. `{ Digits: "1" }`); absent, it always matches. */
  when: z.record(z.string(), scalar).optional(),
  markup: markupField.optional(),
  /** A body that is not markup (e.g. for a status callback). */
  body: z.string().optional(),
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
  /** Seconds each ring attempt lasts. */
  ring_timeout: z.number().int().min(1).max(600).optional(),
  /** Agents by extension or name, in ring order. */
  members: z.array(z.string().min(1)).min(1),
});

// ---- expectations ---------------------------------------------------------------------------------

/** Fields to compare; any field of the record may be named (partial match). */
const partial = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape);

export const callExpectationSchema = partial({
  status: z.enum(callStatuses).optional(),
  direction: z.enum(["inbound", "outbound-api", "outbound-dial"]).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  duration: z.number().int().optional(),
  price: z.string().nullable().optional(),
  /** The call's child legs (from Dial), oldest first, as an ordered partial list. */
  get children(): z.ZodOptional<z.ZodArray<typeof callExpectationSchema>> {
    return z.array(callExpectationSchema).optional();
  },
});

const callRef = callIdField.optional();

export const recordingExpectationSchema = partial({
  call: callRef,
  source: z.enum(recordingSources).optional(),
  channels: z.number().int().min(1).max(2).optional(),
  status: z.string().optional(),
  duration: z.number().int().optional(),
});

const segmentExpectation = partial({
  speaker: z.string().optional(),
  text: z.string().optional(),
  start_time: z.number().optional(),
  end_time: z.number().optional(),
});

export const transcriptionExpectationSchema = partial({
  call: callRef,
  status: z.enum(["in-progress", "completed", "failed"]).optional(),
  text: z.string().nullable().optional(),
  provider: z.string().optional(),
  segments: z.array(segmentExpectation).nullable().optional(),
});

export const messageExpectationSchema = partial({
  direction: z.enum(["inbound", "outbound-api", "outbound-call", "outbound-reply"]).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  body: z.string().optional(),
  status: z.string().optional(),
});

/** A request the sandbox made to a customer URL. */
export const requestExpectationSchema = z.strictObject({
  /** A path ("/status": on the handlers or --target base) or an absolute URL. */
  url: z.string().optional(),
  method: z.enum(["GET", "POST"]).optional(),
  kind: z
    .enum([
      "voice-markup",
      "sms-markup",
      "call-status",
      "recording-status",
      "transcription",
      "message-status",
    ])
    .optional(),
  call: callRef,
  /** HTTP status the receiving app answered with (null: no answer, e.g. a connection error). */
  status: z.number().int().nullable().optional(),
  /** Parameters that must be present with these values (others may be present too). */
  params: z.record(z.string(), scalar).optional(),
});

export const heardExpectationSchema = z
  .strictObject({
    /** Text spoken by Say, exactly. */
    say: z.string().optional(),
    /** A Play URL (absolute, or a path on the handlers base). */
    play: z.string().optional(),
    /** DTMF tones played to the party (Play digits). */
    digits: z.string().optional(),
    /** The beep before a Record. */
    beep: z.literal(true).optional(),
  })
  .refine((h) => [h.say, h.play, h.digits, h.beep].filter((v) => v !== undefined).length === 1, {
    message: "name exactly one of say, play, digits or beep",
  });

export const ledgerExpectationSchema = partial({
  kind: z.string().optional(),
  category: z.string().optional(),
  amount_cents: z.number().int().optional(),
  balance_cents: z.number().int().optional(),
  /** The call charged (resource_sid). */
  call: callRef,
});

export const eventExpectationSchema = partial({
  type: z.string().optional(),
  /** The call the event is about (resource_sid). */
  call: callRef,
});

export const alertExpectationSchema = partial({
  code: z.number().int().optional(),
  level: z.enum(["error", "warning"]).optional(),
  call: callRef,
});

export const expectationSchema = z.strictObject({
  /** Final state of the scenario's calls, by id (partial match). */
  calls: z.record(callIdField, callExpectationSchema).optional(),
  /** Lists are ordered partial matches: each entry matches a later record than the entry before it. */
  messages: z.array(messageExpectationSchema).optional(),
  recordings: z.array(recordingExpectationSchema).optional(),
  transcriptions: z.array(transcriptionExpectationSchema).optional(),
  /** Callbacks (status, recording, transcription), in the order they were sent. */
  webhooks: z.array(requestExpectationSchema).optional(),
  /** Markup requests (voice_url, action URLs, sms_url), in the order they were made. */
  requests: z.array(requestExpectationSchema).optional(),
  /** What each call's party heard, in order. */
  heard: z.record(callIdField, z.array(heardExpectationSchema)).optional(),
  /** The account's ledger entries, oldest first. */
  ledger: z.array(ledgerExpectationSchema).optional(),
  balance_cents: z.number().int().optional(),
  /** Carrier events of the account, oldest first. */
  events: z.array(eventExpectationSchema).optional(),
  /** Engine alerts (markup and fetch errors), oldest first; `[]` means none at all. */
  alerts: z.array(alertExpectationSchema).optional(),
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
    /** Seconds to let it ring. */
    timeout: z.number().int().min(1).optional(),
    time_limit: z.number().int().min(1).optional(),
    send_digits: z.string().optional(),
    /** What the called party does: answer, busy, no-answer, failed, decline, and its script (the engine's party format). */
    callee: partyBehaviourSchema.optional(),
  })
  .refine((c) => (c.url === undefined) !== (c.twiml === undefined), { message: "give url or twiml (one)" });

export const agentChangeSchema = z.strictObject({
  /** The agent's extension or name. */
  agent: z.string().min(1),
  status: z.enum(["online", "offline", "busy", "away", "dnd"]),
});

export const inboundSmsSchema = z.strictObject({
  from: e164Field,
  to: e164Field,
  body: z.string(),
});

const callerRef = { call: callIdField };

export const speakSchema = z.strictObject({
  ...callerRef,
  text: z.string().min(1),
  /** How long the words take (default 400 ms a word). */
  for: durationField.optional(),
  confidence: z.number().min(0).max(1).optional(),
});
export const pressSchema = z.strictObject({
  ...callerRef,
  digits: z.string().regex(/^[0-9*#A-Dw]+$/, "digits are 0-9, *, #, A-D and w (a half-second wait)"),
  /** Time between keys (default 300 ms). */
  gap: durationField.optional(),
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
  /** Text the error message contains. */
  message: z.string().optional(),
});

export const worldActions = ["call", "place_call", "agent", "sms", "wait", "expect"] as const;
export const callerActions = ["speak", "press", "silence", "hangup", "expect_heard"] as const;
export const stepActions = [...worldActions, ...callerActions] as const;
export type StepAction = (typeof stepActions)[number];

export const stepSchema = z
  .strictObject({
    /** A label shown in reports. */
    name: z.string().optional(),
    /** Scenario time this step happens at (from the start), e.g. 1m30s. */
    at: durationField.optional(),
    /**
     * World steps: this long after the previous world step. Caller steps: this long after the call starts
     * listening (default 1s), after `on`'s verb starts, or (hangup) after the caller's previous step ends.
     */
    after: durationField.optional(),
    /** Caller steps: when the call starts this verb for the nth time. */
    on: z.strictObject({ verb: z.enum(listeningVerbs), nth: z.number().int().min(1).default(1) }).optional(),
    /** The step is expected to be refused (e.g. a suspended account): the error it must give. */
    expect_error: stepErrorSchema.optional(),

    call: inboundCallSchema.optional(),
    place_call: placeCallSchema.optional(),
    agent: agentChangeSchema.optional(),
    sms: inboundSmsSchema.optional(),
    wait: durationField.optional(),
    expect: expectationSchema.optional(),

    speak: speakSchema.optional(),
    press: pressSchema.optional(),
    silence: silenceSchema.optional(),
    hangup: hangupSchema.optional(),
    expect_heard: expectHeardStepSchema.optional(),
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
    if (step.expect_error !== undefined && !["call", "place_call", "agent", "sms"].includes(action))
      ctx.addIssue({
        code: "custom",
        path: ["expect_error"],
        message: "expect_error is for call, place_call, agent and sms steps",
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

export const scenarioSchema = z.strictObject({
  /** Shown in reports; unique names read best. */
  name: z.string({ error: "every scenario needs a name" }).min(1),
  description: z.string().optional(),
  /** Reported as skipped with this reason instead of running (e.g. "needs inbound SMS"). */
  skip: z.string().min(1).optional(),
  /** Seed for ids (default 1); --seed overrides it. */
  seed: z.union([z.number().int(), z.string().min(1)]).optional(),
  /** `default` (the packaged fixtures), `empty`, or a fixture file path relative to this file. */
  fixtures: z.string().min(1).optional(),
  /** Handlers not defined inline go to the app given with --target; without one the scenario is skipped. */
  needs_target: z.boolean().optional(),
  /** Most scenario time to play before giving up (default 1h). */
  timeout: durationField.optional(),
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
  /** How numbers (or agent extensions) the sandbox calls behave: the engine's party format. */
  parties: z.record(z.string(), partyBehaviourSchema).default({}),
  /** What the speech-to-text provider returns: transcripts of what was said (default), or failures. */
  transcriptions: z
    .strictObject({
      outcome: z.enum(["completed", "failed"]),
      /** Only these calls' transcriptions (default: all). */
      calls: z.array(callIdField).optional(),
    })
    .optional(),
  steps: z.array(stepSchema).default([]),
  expect: expectationSchema.optional(),
});

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Step = z.output<typeof stepSchema>;
export type Expectation = z.output<typeof expectationSchema>;
export type RequestExpectation = z.output<typeof requestExpectationSchema>;
export type HandlerResponse = z.output<typeof handlerResponseSchema>;
