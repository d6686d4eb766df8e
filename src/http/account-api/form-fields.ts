// Form parameter schemas the account API shares: URLs, HTTP methods, booleans.
import { z } from "zod";
import { e164Pattern } from "../../domain/fields.js";

/** An absolute http(s) URL, as Twilio requires for every callback and handler. */
export const formUrl = z
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
  .transform((value) => (value === "" ? null : value));

/** GET or POST, any case. */
export const formMethod = z
  .string()
  .transform((value) => value.toUpperCase())
  .pipe(z.enum(["GET", "POST"], { error: "must be GET or POST" }));

export const formE164 = z.string().regex(e164Pattern, "must be an E.164 number such as +14155550100");

export const formBoolean = z
  .enum(["true", "false", "True", "False"], { error: "must be true or false" })
  .transform((value) => value.toLowerCase() === "true");
