// Carrier rates: what a voice minute, an SMS segment, a TTS character, a recorded or transcribed minute costs, by prefix.
import { z } from "zod";
import { decimalString, instant, isoCountry, sid } from "./fields.js";

export const rateCategories = ["voice", "sms", "tts", "recording", "transcription"] as const;
export const rateUnits = {
  voice: "minute",
  sms: "segment",
  tts: "character",
  recording: "minute",
  transcription: "minute",
} as const;

export const rateSchema = z.object({
  sid: sid("RT"),
  category: z.enum(rateCategories),
  country: isoCountry,
  /** Longest matching E.164 prefix wins, e.g. "+1415"; "+1" covers the country. */
  prefix: z.string().regex(/^\+\d{1,15}$/),
  price: decimalString,
  currency: z.string().regex(/^[A-Z]{3}$/),
  created_at: instant,
  updated_at: instant,
});
export type Rate = z.infer<typeof rateSchema>;
