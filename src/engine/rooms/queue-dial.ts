// The agent's side of a queue: Dial <Queue> takes the first caller (or waits), the two are bridged, then part.
import { type AgentLink, agentOf, type QueueState, removeMember } from "./queue-line.js";

/** The agent takes `callerSid` out of the line; the caller plays the agent's url, then calls ready(). */
export function matchCaller(state: QueueState, agentSid: string, agent: AgentLink, callerSid: string) {
  const { links } = state;
  const link = state.callers.get(callerSid)!;
  removeMember(state, callerSid, "queue.dequeued");
  link.state = { kind: "taken", url: agent.url, method: agent.method, agentSid };
  agent.callerSid = callerSid;
  agent.state = "connecting";
  links.note(agentSid, "queue.take", { queue: agent.queueSid, caller: callerSid });
  links.signal(callerSid);
  links.signal(agentSid);
}

/** The agent's Dial <Queue>: the first caller with a live program is taken, else the agent waits (null: no such queue). */
export function takeFromQueue(
  state: QueueState,
  agentSid: string,
  name: string,
  url: string | null,
  method: "GET" | "POST",
) {
  const { ctx } = state.links;
  const agentCall = ctx.store.calls.get(agentSid)!;
  const queue = ctx.store.queues.findOne("name", `${agentCall.account_sid}:${name}`);
  if (!queue) return null;
  const agent: AgentLink = { queueSid: queue.sid, callerSid: null, state: "waiting", url, method };
  state.agents.set(agentSid, agent);
  for (const member of ctx.store.queueMembers.where("queue", queue.sid)) {
    // A member without a live program (a restored snapshot's leftovers) is dropped from the line.
    if (state.callers.get(member.call_sid)?.state.kind !== "waiting") {
      removeMember(state, member.call_sid, "queue.dequeued");
      continue;
    }
    matchCaller(state, agentSid, agent, member.call_sid);
    break;
  }
  if (agent.state === "waiting") state.links.note(agentSid, "queue.wait", { queue: queue.sid });
  return { queueSid: queue.sid };
}

/** The taken caller has played the agent's url: the two are bridged, unless the agent's Dial is over. */
export function bridgeWhenReady(state: QueueState, callSid: string) {
  const link = state.callers.get(callSid);
  if (link?.state.kind !== "taken") return;
  const agentSid = link.state.agentSid;
  const agent = state.agents.get(agentSid);
  if (agent?.state !== "connecting") {
    link.state = { kind: "ended" };
    return;
  }
  link.state = { kind: "bridged" };
  agent.state = "bridged";
  state.links.bridge(agentSid, callSid);
  state.links.signal(agentSid);
}

/** The caller's side of a bridge is over: it moves on with QueueResult=bridged. */
export function endForCaller(state: QueueState, callerSid: string) {
  const link = state.callers.get(callerSid);
  if (!link || (link.state.kind !== "taken" && link.state.kind !== "bridged")) return;
  link.state = { kind: "ended" };
  state.links.signal(callerSid);
}

/** The agent's Dial <Queue> is over (its caller left or hung up). */
export function endForAgent(state: QueueState, agentSid: string) {
  const agent = state.agents.get(agentSid);
  if (!agent || agent.state === "ended") return;
  agent.state = "ended";
  state.links.signal(agentSid);
}

/** The agent's Dial moves on: it is forgotten, and the caller it held moves on too. */
export function releaseAgent(state: QueueState, agentSid: string) {
  const agent = state.agents.get(agentSid);
  if (!agent) return;
  state.agents.delete(agentSid);
  if (agent.callerSid) endForCaller(state, agent.callerSid);
}

/** A call ended: out of any line, and whichever side of a bridge it was, the other side moves on. */
export function queueCallEnded(state: QueueState, callSid: string) {
  removeMember(state, callSid, "queue.left");
  releaseAgent(state, callSid);
  const agentSid = agentOf(state, callSid);
  if (agentSid) endForAgent(state, agentSid);
}
