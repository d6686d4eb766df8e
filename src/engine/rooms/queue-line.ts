// The queues' state beside their records: each caller's place in a line, each agent's Dial, and lookups over them.
import { defaultQueueMaxSize, type QueueMember } from "../../domain/queue.js";
import type { QueueCallerState } from "../../markup/effects.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { averageWait } from "./queue-records.js";

/** What the queues need from the call engine. */
export interface QueueLinks {
  ctx: EngineContext;
  /** Wakes the call's program (a `signal` named "queue"): it re-reads its state. */
  signal(callSid: string): void;
  /** The agent and the dequeued caller are connected (recordings, the default conversation). */
  bridge(agentSid: string, callerSid: string): void;
  /** The API moves a member out of the line to new markup. */
  redirect(callSid: string, url: string, method: "GET" | "POST"): void;
  note(callSid: string, kind: string, detail?: Record<string, unknown>): void;
}

export interface CallerLink {
  queueSid: string;
  enqueuedAt: number;
  leftAt: number | null;
  state: QueueCallerState;
}

export interface AgentLink {
  queueSid: string;
  /** The caller taken; null while waiting on an empty queue. */
  callerSid: string | null;
  state: "waiting" | "connecting" | "bridged" | "ended";
  url: string | null;
  method: "GET" | "POST";
}

/** The queues' state held between events (both maps are replaced on reset). */
export interface QueueState {
  links: QueueLinks;
  callers: Map<string, CallerLink>;
  agents: Map<string, AgentLink>;
}

export const nowOf = (state: QueueState) => state.links.ctx.clock.now();

/** A member's event record (keyed by its call, as the Members resource is). */
export const memberEvent = (ctx: EngineContext, type: string, member: QueueMember) =>
  recordEvent(ctx, type, member.account_sid, "queue_member", { sid: member.call_sid, ...member });

/** Takes a call out of the line (no-op when it is not in it). */
export function removeMember(state: QueueState, callSid: string, type: "queue.left" | "queue.dequeued") {
  const { ctx } = state.links;
  const member = ctx.store.queueMembers.get(callSid);
  if (!member) return;
  ctx.store.transact(() => {
    ctx.store.queueMembers.delete(callSid);
    memberEvent(ctx, type, member);
  });
  const link = state.callers.get(callSid);
  if (link && link.leftAt === null) link.leftAt = nowOf(state);
  state.links.note(callSid, type, { queue: member.queue_sid });
}

/** The wait markup's parameters: the caller's place in its line and the line's size and waits. */
export function waitParams(state: QueueState, callSid: string): Record<string, string> {
  const { ctx } = state.links;
  const link = state.callers.get(callSid);
  if (!link) return {};
  const queue = ctx.store.queues.get(link.queueSid);
  const members = ctx.store.queueMembers.where("queue", link.queueSid);
  const position = members.findIndex((m) => m.call_sid === callSid) + 1;
  return {
    QueueSid: link.queueSid,
    QueuePosition: String(position),
    QueueTime: String(queueTime(state, callSid)),
    AvgQueueTime: String(averageWait(ctx, link.queueSid)),
    CurrentQueueSize: String(members.length),
    MaxQueueSize: String(queue?.max_size ?? defaultQueueMaxSize),
  };
}

/** Whole seconds the caller waited in the line (so far, or until it left). */
export function queueTime(state: QueueState, callSid: string): number {
  const link = state.callers.get(callSid);
  if (!link) return 0;
  return Math.max(0, Math.floor(((link.leftAt ?? nowOf(state)) - link.enqueuedAt) / 1000));
}

/** The agent whose Dial holds this caller, if its Dial is not over. */
export function agentOf(state: QueueState, callerSid: string): string | null {
  for (const [sid, agent] of state.agents)
    if (agent.callerSid === callerSid && agent.state !== "ended") return sid;
  return null;
}
