// Field schemas shared by every resource: sids, E.164 numbers, decimal strings, metadata.
import { z } from "zod";

export const sidPattern = (prefix: string) => new RegExp(`^${prefix}[0-9a-f]{32}$`);
const sidSchemas = new Map<string, z.ZodString>();
/** A sid of the given prefix; one schema per prefix, shared by every resource and route that names one. */
export const sid = (prefix: string): z.ZodString => {
  let schema = sidSchemas.get(prefix);
  if (schema === undefined) {
    schema = z.string().regex(sidPattern(prefix), `must be ${prefix} followed by 32 lowercase hex digits`);
    sidSchemas.set(prefix, schema);
  }
  return schema;
};

/** E.164: a plus sign, a non-zero digit, up to 15 digits in all. */
export const e164Pattern = /^\+[1-9]\d{1,14}$/;
export const e164 = z.string().regex(e164Pattern, "must be an E.164 number such as +14155550100");

/** Money as a decimal string ("1.15", "-0.01300"), never a float. */
export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal string such as "1.00"');

export const metadata = z.record(z.string(), z.unknown());

export const isoCountry = z
  .string()
  .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 country code such as US");

/** Milliseconds since the epoch, as read from the injected clock. */
export const instant = z.number().int();

export const httpMethod = z.enum(["GET", "POST"]);

/**
 * An absolute http(s) URL, the one kind of URL the sandbox keeps where a browser may follow it (handlers,
 * callbacks, media): `javascript:`, `data:`, `file:` and every other scheme are refused.
 */
export const httpUrl = z.lazy(() =>
  z.url({ protocol: /^https?$/, error: "must be an absolute http or https URL" }),
);

/**
 * A schema transform that reads a value with `parse`, a function that throws an Error saying what is wrong (the
 * same function a command-line option uses): its message becomes the field's issue.
 */
export const parsedBy =
  <I, T>(parse: (value: I) => T) =>
  (value: I, ctx: z.RefinementCtx<I>): T => {
    try {
      return parse(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  };
