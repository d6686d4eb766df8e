// The account: one tenant of the carrier, with the master auth token used on the account API.
import { z } from "zod";
import { instant, metadata, sid } from "./fields.js";

export const accountStatuses = ["active", "suspended"] as const;
export type AccountStatus = (typeof accountStatuses)[number];

export const accountSchema = z.object({
  sid: sid("AC"),
  name: z.string().min(1),
  status: z.enum(accountStatuses),
  default_tts_voice: z.string(),
  metadata,
  auth_token: z.string().min(1),
  created_at: instant,
  updated_at: instant,
});
export type Account = z.infer<typeof accountSchema>;

/** The voice accounts start with when none is given. */
export const defaultTtsVoice = "Basic.Kal";
