// The scenario file format as zod schemas: setup, steps on the virtual clock, and expectations.
import { z } from "zod";
import { partyBehaviourSchema } from "../engine/calls/party-behaviour.js";
import { maxAgentTurnTimeoutMs } from "../engine/media-streams/agent-turns.js";
import { durationField } from "../engine/time/duration.js";
import { fixtureFileSchema } from "../fixtures/schema.js";
import { expectationSchema } from "./schema/expectations.js";
import { appNameField, callIdField, webSocketUrlField } from "./schema/fields.js";
import {
  accountSetupSchema,
  agentSetupSchema,
  handlerSchema,
  numberSetupSchema,
  ringGroupSetupSchema,
} from "./schema/setup.js";
import { stepSchema } from "./schema/steps.js";

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

/** A party of the scenario: the engine's format, and the name expectations call its first leg by. */
export const scenarioPartySchema = partyBehaviourSchema.extend({
  name: callIdField
    .optional()
    .describe(
      "Names the first leg dialled to this party: heard, calls, { sid_of: name } and {name} placeholders use it.",
    ),
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
    .union([z.string().min(1), fixtureFileSchema])
    .optional()
    .describe(
      "`default` (the packaged fixtures), the fixtures inline (carrier, accounts, phone_numbers, rates), or a fixture file path relative to this file (not in a scenario sent over HTTP).",
    ),
  needs_target: z
    .boolean()
    .optional()
    .describe(
      "Handlers not defined inline go to the app given with --target; without one the scenario is skipped.",
    ),
  timeout: durationField.optional().describe("Most scenario time to play before giving up (default 1h)."),
  agent_turn_timeout: durationField
    .refine((ms) => ms <= maxAgentTurnTimeoutMs, "must be at most 1m (a wait on the agent is real time)")
    .optional()
    .describe(
      "Real time the sandbox waits for a <Connect> app (media stream or ConversationRelay) that owes the caller an answer before it records that the agent did not answer (default 10s; the run's agentTurnTimeout overrides it).",
    ),
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
    .record(z.string(), scenarioPartySchema)
    .default({})
    .describe(
      "How numbers (or agent extensions, SIP URIs) the sandbox calls behave: the engine's party format, and a name for the leg in expectations.",
    ),
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
export type SttResult = z.output<typeof sttResultSchema>;
