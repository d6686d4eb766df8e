// A Twilio application: a named set of voice and messaging handlers that calls and numbers can run by its sid.
import { z } from "zod";
import { instant, sid } from "./fields.js";
import { numberHandlersSchema } from "./phone-number.js";

/** The handlers an application holds: a number's, plus Twilio's application-only fields. */
export const applicationHandlersSchema = numberHandlersSchema
  .omit({
    voice_application_sid: true,
    sms_application_sid: true,
  })
  .extend({
    friendly_name: z.string().max(64).nullable(),
    voice_caller_id_lookup: z.boolean(),
    sms_status_callback: z.string().nullable(),
    message_status_callback: z.string().nullable(),
    public_application_connect_enabled: z.boolean(),
  });
export type ApplicationHandlers = z.infer<typeof applicationHandlersSchema>;

export const applicationSchema = z.object({
  sid: sid("AP"),
  account_sid: sid("AC"),
  ...applicationHandlersSchema.shape,
  created_at: instant,
  updated_at: instant,
});
export type Application = z.infer<typeof applicationSchema>;

/** What Twilio sets where a create leaves a handler out. */
export const defaultApplicationHandlers: ApplicationHandlers = {
  friendly_name: null,
  voice_url: null,
  voice_method: "POST",
  voice_fallback_url: null,
  voice_fallback_method: "POST",
  voice_caller_id_lookup: false,
  status_callback: null,
  status_callback_method: "POST",
  sms_url: null,
  sms_method: "POST",
  sms_fallback_url: null,
  sms_fallback_method: "POST",
  sms_status_callback: null,
  message_status_callback: null,
  public_application_connect_enabled: true,
};
