// Queues as records: create, rename or resize, delete when empty, and the waits the API reports.
import { errors } from "../../domain/errors.js";
import { defaultQueueMaxSize, type Queue, type QueueMember } from "../../domain/queue.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";

export function createQueue(
  ctx: EngineContext,
  accountSid: string,
  input: { friendlyName: string; maxSize?: number | undefined },
): Queue {
  return ctx.store.transact(() => {
    if (ctx.store.queues.findOne("name", `${accountSid}:${input.friendlyName}`)) {
      throw errors.invalidParameter(
        "FriendlyName",
        `A queue named ${input.friendlyName} already exists on this account; queue names are unique.`,
      );
    }
    const at = ctx.clock.now();
    const queue = ctx.store.queues.insert({
      sid: ctx.ids.mint("QU"),
      account_sid: accountSid,
      friendly_name: input.friendlyName,
      max_size: input.maxSize ?? defaultQueueMaxSize,
      created_at: at,
      updated_at: at,
    });
    recordEvent(ctx, "queue.created", accountSid, "queue", queue);
    return queue;
  });
}

export function updateQueue(
  ctx: EngineContext,
  queue: Queue,
  input: { friendlyName?: string | undefined; maxSize?: number | undefined },
): Queue {
  return ctx.store.transact(() => {
    if (input.friendlyName !== undefined && input.friendlyName !== queue.friendly_name) {
      if (ctx.store.queues.findOne("name", `${queue.account_sid}:${input.friendlyName}`)) {
        throw errors.invalidParameter(
          "FriendlyName",
          `A queue named ${input.friendlyName} already exists on this account; queue names are unique.`,
        );
      }
    }
    const updated = ctx.store.queues.replace({
      ...queue,
      friendly_name: input.friendlyName ?? queue.friendly_name,
      max_size: input.maxSize ?? queue.max_size,
      updated_at: ctx.clock.now(),
    });
    recordEvent(ctx, "queue.updated", queue.account_sid, "queue", updated);
    return updated;
  });
}

/** A queue with callers in it cannot be deleted (Twilio refuses it too). */
export function deleteQueue(ctx: EngineContext, queue: Queue): void {
  const waiting = ctx.store.queueMembers.where("queue", queue.sid).length;
  if (waiting > 0) throw errors.queueNotEmpty(queue.sid, waiting);
  ctx.store.transact(() => {
    ctx.store.queues.delete(queue.sid);
    recordEvent(ctx, "queue.deleted", queue.account_sid, "queue", queue);
  });
}

/** Whole seconds a member has waited so far. */
export const waitSeconds = (member: QueueMember, now: number) =>
  Math.max(0, Math.floor((now - member.enqueued_at) / 1000));

/** Twilio's average_wait_time: the mean wait of the callers in the queue now, in whole seconds. */
export function averageWait(ctx: EngineContext, queueSid: string): number {
  const members = ctx.store.queueMembers.where("queue", queueSid);
  if (members.length === 0) return 0;
  const now = ctx.clock.now();
  return Math.round(members.reduce((sum, m) => sum + waitSeconds(m, now), 0) / members.length);
}
