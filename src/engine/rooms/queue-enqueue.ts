// The caller's side of a queue: Enqueue puts it in the line, and it leaves by itself or is dequeued by the API.
import type { QueueMember } from "../../domain/queue.js";
import { endForAgent, matchCaller } from "./queue-dial.js";
import { agentOf, memberEvent, nowOf, type QueueState, removeMember } from "./queue-line.js";
import { createQueue } from "./queue-records.js";

/** The caller joins the named queue's line (made if new), unless it is full; a waiting agent takes it at once. */
export function enqueueCaller(
  state: QueueState,
  callSid: string,
  name: string,
): { queueSid: string; full: boolean } {
  const { ctx } = state.links;
  const call = ctx.store.calls.get(callSid)!;
  return ctx.store.transact(() => {
    const queue =
      ctx.store.queues.findOne("name", `${call.account_sid}:${name}`) ??
      createQueue(ctx, call.account_sid, { friendlyName: name });
    if (ctx.store.queueMembers.where("queue", queue.sid).length >= queue.max_size) {
      state.links.note(callSid, "queue.full", { queue: queue.sid, max: queue.max_size });
      state.callers.set(callSid, {
        queueSid: queue.sid,
        enqueuedAt: nowOf(state),
        leftAt: nowOf(state),
        state: { kind: "out" },
      });
      return { queueSid: queue.sid, full: true };
    }
    const member = ctx.store.queueMembers.insert({
      call_sid: callSid,
      queue_sid: queue.sid,
      account_sid: call.account_sid,
      enqueued_at: nowOf(state),
    });
    memberEvent(ctx, "queue.joined", member);
    state.callers.set(callSid, {
      queueSid: queue.sid,
      enqueuedAt: nowOf(state),
      leftAt: null,
      state: { kind: "waiting" },
    });
    state.links.note(callSid, "queue.joined", { queue: queue.sid });
    // An agent already dialling this empty queue takes the caller at once (Twilio: Dial waits for the next).
    const waiting = [...state.agents].find(([, a]) => a.queueSid === queue.sid && a.state === "waiting");
    if (waiting) matchCaller(state, waiting[0], waiting[1], callSid);
    return { queueSid: queue.sid, full: false };
  });
}

/** The caller's Enqueue is over (it moved on or was redirected): out of the line, and out of any bridge. */
export function callerLeaves(state: QueueState, callSid: string) {
  removeMember(state, callSid, "queue.left");
  const link = state.callers.get(callSid);
  if (link && link.state.kind === "waiting") link.state = { kind: "out" };
  if (link && (link.state.kind === "taken" || link.state.kind === "bridged")) {
    // Redirected away while bridged: the agent's Dial ends as if the caller hung up.
    link.state = { kind: "out" };
    const agentSid = agentOf(state, callSid);
    if (agentSid) endForAgent(state, agentSid);
  }
}

/** The API takes the member out of the line and redirects its call to `url` (QueueResult=redirected). */
export function dequeueToUrl(state: QueueState, member: QueueMember, url: string, method: "GET" | "POST") {
  removeMember(state, member.call_sid, "queue.dequeued");
  const link = state.callers.get(member.call_sid);
  if (link && link.state.kind === "waiting") link.state = { kind: "out" };
  state.links.redirect(member.call_sid, url, method);
  return member;
}
