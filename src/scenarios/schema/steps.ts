// Steps as zod schemas: what the world does (calls, SMS, API requests, waits) and what a caller does.
import { z } from "zod";
import { listeningVerbs, partyBehaviourSchema } from "../../engine/calls/party-behaviour.js";
import { agentCueSchema } from "../../engine/calls/party-cue-schema.js";
import { durationField } from "../../engine/time/duration.js";
import { expectationSchema } from "./expectations.js";
import { callIdField, e164Field, markupField, urlField } from "./fields.js";
import { backchannelField, lineField } from "./persona-fields.js";

export const inboundCallSchema = z.strictObject({
  id: callIdField,
  from: e164Field,
  to: e164Field,
  caller_name: z.string().optional(),
  forwarded_from: z.string().optional(),
  line: lineField,
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
  backchannel: backchannelField,
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
          z.strictObject({ agent: agentCueSchema }),
        ],
        {
          error:
            'must be { verb: Gather, nth: 1 }, { agent: talking }, { agent: { said: "words" } }, { agent: { said: { pattern: "regex", flags: i } } } or { agent: { mark: name } }',
        },
      )
      .optional()
      .describe(
        "Caller steps: when the call starts this verb for the nth time; or, in its turn, when the <Connect> app next starts talking ({ agent: talking }: the caller cuts in), says words containing these (any case) or matching a regular expression ({ agent: { said: ... } }, { agent: { said: { pattern, flags } } }), or has this mark echoed ({ agent: { mark: ... } }); then after (default 1s).",
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

export type Step = z.output<typeof stepSchema>;
