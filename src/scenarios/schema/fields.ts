// The scenario format's shared fields: phone numbers, call ids, URLs, app names, inline markup.
import { z } from "zod";

export const e164Field = z
  .string({ error: 'must be an E.164 number in quotes, e.g. "+14155550100" (unquoted, YAML reads a number)' })
  .regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 number such as "+14155550100"');

/** A call's name within the scenario, used by later steps and expectations. */
export const callIdField = z
  .string({ error: "must be a call id such as c1" })
  .regex(/^[A-Za-z][\w-]*$/, "must be a name such as c1 or caller-2 (letters, digits, _ and -)");

/**
 * A call or leg as expectations name it: a call id of a call or place_call step, a party's `name`, or an
 * agent's name or extension (the first leg dialled to it); checked against the scenario when it loads.
 */
export const legNameField = z
  .string({ error: "must name a call (c1), a named party or an agent" })
  .min(1, "must name a call (c1), a named party or an agent");

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

/** Call-control markup written inline (a handler, a number's voice or sms, place_call twiml). */
export const markupField = z
  .string({ error: "must be call-control markup such as <Response><Say>Hi</Say></Response>" })
  .refine((v) => v.trim().startsWith("<"), { message: "must be markup starting with <Response>" });

/** A parameter value as a file may write it. */
export const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** `{ sid_of: name }`: the sid of a call, a named leg, `conferences.name` or `queues.name`, read when checked. */
export const sidOfField = z
  .strictObject({
    sid_of: z
      .string({ error: "sid_of names a call, a named party or agent, conferences.name or queues.name" })
      .min(1),
  })
  .describe(
    "The sid of a call (its id), of the first leg to a named party or agent, of conferences.<name> or of queues.<name>.",
  );

/**
 * A value an expectation matches a parameter or field with: the value itself, `present` (any value),
 * `absent` (not sent, or null) or `{ sid_of: name }`.
 */
export const matchValueField = z.union([scalar, sidOfField], {
  error: "must be a value, present (any value), absent (not sent) or { sid_of: name }",
});
