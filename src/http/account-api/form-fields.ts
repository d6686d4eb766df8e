// Form parameter schemas the account API shares: URLs, HTTP methods, booleans, repeated values.
import { z } from "zod";
import { e164Pattern } from "../../domain/fields.js";

/** An absolute http(s) URL, as Twilio requires for every callback and handler. */
export const formUrl = z.lazy(() =>
  z
    .string()
    .refine((value) => {
      if (value === "") return true;
      try {
        const url = new URL(value);
        return url.protocol === "http:" || url.protocol === "https:";
      } catch {
        return false;
      }
    }, "must be an absolute http or https URL")
    .transform((value) => (value === "" ? null : value)),
);

/** GET or POST, any case. */
export const formMethod = z.lazy(() =>
  z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(["GET", "POST"], { error: "must be GET or POST" })),
);

export const formE164 = z.lazy(() =>
  z.string().regex(e164Pattern, "must be an E.164 number such as +14155550100"),
);

export const formBoolean = z.lazy(() =>
  z
    .enum(["true", "false", "True", "False"], { error: "must be true or false" })
    .transform((value) => value.toLowerCase() === "true"),
);

/** A whole number of seconds (Timeout, TimeLimit, ...), as a form sends it. */
export const seconds = () =>
  z.coerce.number({ error: "must be a whole number of seconds" }).int("must be a whole number of seconds");

/** A parameter that may be repeated (`StatusCallbackEvent=a&StatusCallbackEvent=b`): always an array. */
export const repeated = <T extends z.ZodType>(item: T) =>
  z.union([item.transform((value) => [value]), z.array(item)]).optional();

/**
 * Event names Twilio takes repeated (as its client sends them) or separated by spaces in one value (as its
 * docs write them: `RecordingStatusCallbackEvent=in-progress completed`): always an array.
 */
export function formEventList<const V extends readonly [string, ...string[]]>(values: V) {
  const name = values.join("|");
  const one = z
    .string()
    .regex(
      new RegExp(`^\\s*(?:${name})(?:\\s+(?:${name}))*\\s*$`),
      `must be ${values.join(", ")} (repeated, or separated by spaces)`,
    );
  return z
    .union([one, z.array(one)])
    .transform(
      (given) =>
        (Array.isArray(given) ? given : [given]).flatMap((v) => v.trim().split(/\s+/)) as V[number][],
    )
    .optional();
}

/** Parameters the sandbox does not act on are refused, never silently ignored. */
export const notEmulated = (what: string) =>
  z
    .string()
    .refine(() => false, `${what} are not emulated by the sandbox`)
    .optional();
