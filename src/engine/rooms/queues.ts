// Call queues on the clock: Enqueue, the FIFO line, dequeue by an agent's Dial or by the API, and the bridge.
import { errors } from "../../domain/errors.js";
import { defaultQueueMaxSize, type Queue, type QueueMember } from "../../domain/queue.js";
import type { QueueCallerState, QueueHost } from "../../markup/effects.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";

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

/** REST control of queue members (the account API's Members resource). */
export interface QueueControl {
  /** Takes the member out of the line and redirects its call to `url` (QueueResult=redirected). */
  dequeue(member: QueueMember, url: string, method: "GET" | "POST"): QueueMember;
}

export interface Queues extends QueueControl {
  hostFor(callSid: string): QueueHost;
  callEnded(callSid: string): void;
  reset(): void;
}

interface CallerLink {
  queueSid: string;
  enqueuedAt: number;
  leftAt: number | null;
  state: QueueCallerState;
}

interface AgentLink {
  queueSid: string;
  /** The caller taken; null while waiting on an empty queue. */
  callerSid: string | null;
  state: "waiting" | "connecting" | "bridged" | "ended";
  url: string | null;
  method: "GET" | "POST";
}

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

export function createQueues(links: QueueLinks): Queues {
  const { ctx } = links;
  const now = () => ctx.clock.now();
  let callers = new Map<string, CallerLink>();
  let agents = new Map<string, AgentLink>();

  const memberEvent = (type: string, member: QueueMember) =>
    recordEvent(ctx, type, member.account_sid, "queue_member", { sid: member.call_sid, ...member });

  /** Takes a call out of the line (no-op when it is not in it). */
  function removeMember(callSid: string, type: "queue.left" | "queue.dequeued") {
    const member = ctx.store.queueMembers.get(callSid);
    if (!member) return;
    ctx.store.transact(() => {
      ctx.store.queueMembers.delete(callSid);
      memberEvent(type, member);
    });
    const link = callers.get(callSid);
    if (link && link.leftAt === null) link.leftAt = now();
    links.note(callSid, type, { queue: member.queue_sid });
  }

  function enqueue(callSid: string, name: string): { queueSid: string; full: boolean } {
    const call = ctx.store.calls.get(callSid)!;
    return ctx.store.transact(() => {
      const queue =
        ctx.store.queues.findOne("name", `${call.account_sid}:${name}`) ??
        createQueue(ctx, call.account_sid, { friendlyName: name });
      if (ctx.store.queueMembers.where("queue", queue.sid).length >= queue.max_size) {
        links.note(callSid, "queue.full", { queue: queue.sid, max: queue.max_size });
        callers.set(callSid, {
          queueSid: queue.sid,
          enqueuedAt: now(),
          leftAt: now(),
          state: { kind: "out" },
        });
        return { queueSid: queue.sid, full: true };
      }
      const member = ctx.store.queueMembers.insert({
        call_sid: callSid,
        queue_sid: queue.sid,
        account_sid: call.account_sid,
        enqueued_at: now(),
      });
      memberEvent("queue.joined", member);
      callers.set(callSid, {
        queueSid: queue.sid,
        enqueuedAt: now(),
        leftAt: null,
        state: { kind: "waiting" },
      });
      links.note(callSid, "queue.joined", { queue: queue.sid });
      // An agent already dialling this empty queue takes the caller at once (Twilio: Dial waits for the next).
      const waiting = [...agents].find(([, a]) => a.queueSid === queue.sid && a.state === "waiting");
      if (waiting) match(waiting[0], waiting[1], callSid);
      return { queueSid: queue.sid, full: false };
    });
  }

  function waitParams(callSid: string): Record<string, string> {
    const link = callers.get(callSid);
    if (!link) return {};
    const queue = ctx.store.queues.get(link.queueSid);
    const members = ctx.store.queueMembers.where("queue", link.queueSid);
    const position = members.findIndex((m) => m.call_sid === callSid) + 1;
    return {
      QueueSid: link.queueSid,
      QueuePosition: String(position),
      QueueTime: String(queueTime(callSid)),
      AvgQueueTime: String(averageWait(ctx, link.queueSid)),
      CurrentQueueSize: String(members.length),
      MaxQueueSize: String(queue?.max_size ?? defaultQueueMaxSize),
    };
  }

  function queueTime(callSid: string): number {
    const link = callers.get(callSid);
    if (!link) return 0;
    return Math.max(0, Math.floor(((link.leftAt ?? now()) - link.enqueuedAt) / 1000));
  }

  /** The agent takes `callerSid` out of the line; the caller plays the agent's url, then calls ready(). */
  function match(agentSid: string, agent: AgentLink, callerSid: string) {
    const link = callers.get(callerSid)!;
    removeMember(callerSid, "queue.dequeued");
    link.state = { kind: "taken", url: agent.url, method: agent.method, agentSid };
    agent.callerSid = callerSid;
    agent.state = "connecting";
    links.note(agentSid, "queue.take", { queue: agent.queueSid, caller: callerSid });
    links.signal(callerSid);
    links.signal(agentSid);
  }

  function take(agentSid: string, name: string, url: string | null, method: "GET" | "POST") {
    const agentCall = ctx.store.calls.get(agentSid)!;
    const queue = ctx.store.queues.findOne("name", `${agentCall.account_sid}:${name}`);
    if (!queue) return null;
    const agent: AgentLink = { queueSid: queue.sid, callerSid: null, state: "waiting", url, method };
    agents.set(agentSid, agent);
    for (const member of ctx.store.queueMembers.where("queue", queue.sid)) {
      // A member without a live program (a restored snapshot's leftovers) is dropped from the line.
      if (callers.get(member.call_sid)?.state.kind !== "waiting") {
        removeMember(member.call_sid, "queue.dequeued");
        continue;
      }
      match(agentSid, agent, member.call_sid);
      break;
    }
    if (agent.state === "waiting") links.note(agentSid, "queue.wait", { queue: queue.sid });
    return { queueSid: queue.sid };
  }

  /** The caller's side of a bridge is over: it moves on with QueueResult=bridged. */
  function endForCaller(callerSid: string) {
    const link = callers.get(callerSid);
    if (!link || (link.state.kind !== "taken" && link.state.kind !== "bridged")) return;
    link.state = { kind: "ended" };
    links.signal(callerSid);
  }

  function endForAgent(agentSid: string) {
    const agent = agents.get(agentSid);
    if (!agent || agent.state === "ended") return;
    agent.state = "ended";
    links.signal(agentSid);
  }

  const agentOf = (callerSid: string) => {
    for (const [sid, agent] of agents)
      if (agent.callerSid === callerSid && agent.state !== "ended") return sid;
    return null;
  };

  return {
    hostFor: (callSid) => ({
      enqueue: (name) => enqueue(callSid, name),
      waitParams: () => waitParams(callSid),
      callerState: () => callers.get(callSid)?.state ?? { kind: "out" },
      queueTime: () => queueTime(callSid),
      leave: () => {
        removeMember(callSid, "queue.left");
        const link = callers.get(callSid);
        if (link && link.state.kind === "waiting") link.state = { kind: "out" };
        if (link && (link.state.kind === "taken" || link.state.kind === "bridged")) {
          // Redirected away while bridged: the agent's Dial ends as if the caller hung up.
          link.state = { kind: "out" };
          const agentSid = agentOf(callSid);
          if (agentSid) endForAgent(agentSid);
        }
      },
      ready: () => {
        const link = callers.get(callSid);
        if (link?.state.kind !== "taken") return;
        const agentSid = link.state.agentSid;
        const agent = agents.get(agentSid);
        if (agent?.state !== "connecting") {
          link.state = { kind: "ended" };
          return;
        }
        link.state = { kind: "bridged" };
        agent.state = "bridged";
        links.bridge(agentSid, callSid);
        links.signal(agentSid);
      },
      take: (name, url, method) => take(callSid, name, url, method),
      agentState: () => agents.get(callSid)?.state ?? "ended",
      partner: () => agents.get(callSid)?.callerSid ?? null,
      release: () => {
        const agent = agents.get(callSid);
        if (!agent) return;
        agents.delete(callSid);
        if (agent.callerSid) endForCaller(agent.callerSid);
      },
    }),
    callEnded(callSid) {
      removeMember(callSid, "queue.left");
      const agent = agents.get(callSid);
      if (agent) {
        agents.delete(callSid);
        if (agent.callerSid) endForCaller(agent.callerSid);
      }
      const agentSid = agentOf(callSid);
      if (agentSid) endForAgent(agentSid);
    },
    dequeue(member, url, method) {
      removeMember(member.call_sid, "queue.dequeued");
      const link = callers.get(member.call_sid);
      if (link && link.state.kind === "waiting") link.state = { kind: "out" };
      links.redirect(member.call_sid, url, method);
      return member;
    },
    reset() {
      callers = new Map();
      agents = new Map();
    },
  };
}
