// A carrier phone number: inventory row, and once assigned to an account, its incoming phone number.
import { z } from "zod";
import { decimalString, e164, httpMethod, instant, isoCountry, metadata, sid } from "./fields.js";

export const numberTypes = ["local", "mobile", "toll_free"] as const;
export const visibilities = ["public", "private"] as const;
export const phoneNumberStatuses = ["available", "assigned"] as const;

/** What an account configures on its number (the account API's IncomingPhoneNumber fields). */
export const numberHandlersSchema = z.object({
  friendly_name: z.string().max(64),
  voice_url: z.string().nullable(),
  voice_method: httpMethod,
  voice_fallback_url: z.string().nullable(),
  voice_fallback_method: httpMethod,
  status_callback: z.string().nullable(),
  status_callback_method: httpMethod,
  sms_url: z.string().nullable(),
  sms_method: httpMethod,
  sms_fallback_url: z.string().nullable(),
  sms_fallback_method: httpMethod,
  /** Twilio: an application whose voice (or SMS) handlers the number runs in place of its own. */
  voice_application_sid: sid("AP").nullable().default(null),
  sms_application_sid: sid("AP").nullable().default(null),
});
export type NumberHandlers = z.infer<typeof numberHandlersSchema>;

export const phoneNumberSchema = z.object({
  sid: sid("PN"),
  number: e164,
  number_type: z.enum(numberTypes),
  visibility: z.enum(visibilities),
  country: isoCountry,
  price: decimalString,
  region: z.string().nullable(),
  locality: z.string().nullable(),
  rate_center: z.string().nullable(),
  lata: z.string().nullable(),
  /** Snapshots written before the field existed load with none. */
  postal_code: z.string().nullable().default(null),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  metadata,
  status: z.enum(phoneNumberStatuses),
  account_sid: sid("AC").nullable(),
  assigned_at: instant.nullable(),
  ...numberHandlersSchema.shape,
  created_at: instant,
  updated_at: instant,
});
export type PhoneNumber = z.infer<typeof phoneNumberSchema>;

/** "(415) 555-0100" for North American numbers, the E.164 string otherwise (Twilio's friendly_name). */
export function formatNumber(number: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(number);
  return nanp ? `(${nanp[1]}) ${nanp[2]}-${nanp[3]}` : number;
}

/** Handlers of a number that no account holds: nothing routes anywhere. */
export function blankHandlers(number: string): NumberHandlers {
  return {
    friendly_name: formatNumber(number),
    voice_url: null,
    voice_method: "POST",
    voice_fallback_url: null,
    voice_fallback_method: "POST",
    status_callback: null,
    status_callback_method: "POST",
    sms_url: null,
    sms_method: "POST",
    sms_fallback_url: null,
    sms_fallback_method: "POST",
    voice_application_sid: null,
    sms_application_sid: null,
  };
}
