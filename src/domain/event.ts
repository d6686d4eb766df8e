// Carrier events: one row per state change, with a copy of the affected resource at that moment.
import { z } from "zod";
import { instant, sid } from "./fields.js";

export const eventSchema = z.object({
  sid: sid("EV"),
  type: z.string(),
  account_sid: sid("AC").nullable(),
  resource_type: z.string(),
  resource_sid: z.string(),
  data: z.record(z.string(), z.unknown()),
  occurred_at: instant,
});
export type SandboxEvent = z.infer<typeof eventSchema>;
