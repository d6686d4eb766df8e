// Call queues on the clock: the lines' state and its wiring; Enqueue's side in queue-enqueue.ts, Dial's in queue-dial.ts.
import type { QueueMember } from "../../domain/queue.js";
import type { QueueHost } from "../../markup/effects.js";
import { bridgeWhenReady, queueCallEnded, releaseAgent, takeFromQueue } from "./queue-dial.js";
import { callerLeaves, dequeueToUrl, enqueueCaller } from "./queue-enqueue.js";
import { type QueueLinks, type QueueState, queueTime, waitParams } from "./queue-line.js";

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

export function createQueues(links: QueueLinks): Queues {
  const state: QueueState = { links, callers: new Map(), agents: new Map() };
  return {
    hostFor: (callSid) => ({
      enqueue: (name) => enqueueCaller(state, callSid, name),
      waitParams: () => waitParams(state, callSid),
      callerState: () => state.callers.get(callSid)?.state ?? { kind: "out" },
      queueTime: () => queueTime(state, callSid),
      leave: () => callerLeaves(state, callSid),
      ready: () => bridgeWhenReady(state, callSid),
      take: (name, url, method) => takeFromQueue(state, callSid, name, url, method),
      agentState: () => state.agents.get(callSid)?.state ?? "ended",
      partner: () => state.agents.get(callSid)?.callerSid ?? null,
      release: () => releaseAgent(state, callSid),
    }),
    callEnded: (callSid) => queueCallEnded(state, callSid),
    dequeue: (member, url, method) => dequeueToUrl(state, member, url, method),
    reset() {
      state.callers = new Map();
      state.agents = new Map();
    },
  };
}
