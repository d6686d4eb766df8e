// A call queue of an account and the calls waiting in it (account API Queues and Members).
import { z } from "zod";
import { instant, sid } from "./fields.js";

/** Twilio's default and largest MaxSize. */
export const defaultQueueMaxSize = 100;
export const largestQueueMaxSize = 5000;

export const queueSchema = z.object({
  sid: sid("QU"),
  account_sid: sid("AC"),
  friendly_name: z.string(),
  max_size: z.number().int(),
  created_at: instant,
  updated_at: instant,
});
export type Queue = z.infer<typeof queueSchema>;

/** A call waiting in a queue; rows are kept in arrival order, so the first row of a queue is its front. */
export const queueMemberSchema = z.object({
  call_sid: sid("CA"),
  queue_sid: sid("QU"),
  account_sid: sid("AC"),
  enqueued_at: instant,
});
export type QueueMember = z.infer<typeof queueMemberSchema>;
