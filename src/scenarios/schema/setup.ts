// The scenario's setup as zod schemas: its account, numbers, inline handlers, agents and ring groups.
import { z } from "zod";
import { e164Field, markupField, scalar, urlField } from "./fields.js";

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

export type HandlerResponse = z.output<typeof handlerResponseSchema>;
