// The admin API's path parameters, checked as the account and carrier APIs check theirs: a sid by its prefix, a
// number as E.164, `client:` or `sip:`; anything else is a 400 naming the parameter before a handler runs.
import { z } from "zod";
import { clientAddressPattern, sipAddressPattern } from "../../domain/call.js";
import { e164Pattern, sid } from "../../domain/fields.js";

/** Whom the sandbox calls or is called by: an E.164 number, a Voice SDK client (`client:alice`) or a SIP address. */
const partyAddress = z.lazy(() =>
  z
    .string()
    .refine(
      (value) => e164Pattern.test(value) || clientAddressPattern.test(value) || sipAddressPattern.test(value),
      "must be an E.164 number such as +14155550100, client:name or sip:user@host",
    ),
);

/** Path parameter schemas by the admin routes that take them; each names every parameter of its paths. */
export const adminPathParams = {
  account: z.lazy(() => z.strictObject({ AccountSid: sid("AC") })),
  agent: z.lazy(() =>
    z.strictObject({
      AccountSid: sid("AC"),
      Extension: z.string().regex(/^[1-9]\d{1,7}$/, "must be 2 to 8 digits, not starting with 0, e.g. 101"),
    }),
  ),
  apiKey: z.lazy(() => z.strictObject({ KeySid: sid("SK") })),
  call: z.lazy(() => z.strictObject({ CallSid: sid("CA") })),
  number: z.lazy(() => z.strictObject({ Number: partyAddress })),
  transcription: z.lazy(() =>
    z.strictObject({
      Sid: sid("TR"),
      Outcome: z.enum(["complete", "fail"], { error: "must be complete or fail" }),
    }),
  ),
  fault: z.lazy(() =>
    z.strictObject({ FaultId: z.string().regex(/^fault_\d+$/, "must be a fault id such as fault_1") }),
  ),
  delivery: z.lazy(() => z.strictObject({ DeliveryId: sid("WH") })),
  recording: z.lazy(() => z.strictObject({ RecordingSid: sid("RE") })),
};
