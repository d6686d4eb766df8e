// What the phone API reads of a `<Connect>` agent in a call's timeline: whether it talks or waits, its turns and answers.
import { type AgentMetrics, agentMetrics, turnsOf } from "../engine/media-streams/agent-metrics.js";
import type { TurnRecord } from "../engine/media-streams/conversation.js";
import type { TimelineView } from "./timeline.js";

export type { AgentMetrics, TurnRecord };

/** A `<Connect>` app (media stream or ConversationRelay) running now: whether it talks, and since when. */
interface AgentView {
  talking: boolean;
  since: string;
}

/** The verb running now (innermost), and the state of its `<Connect>` app when it is one that has started. */
export function runningVerb(view: TimelineView): { verb: string | undefined; agent: AgentView | null } {
  const open: string[] = [];
  let agent: AgentView | null = null;
  for (const entry of view.timeline) {
    if (entry.kind === "verb.start") {
      open.push(String(entry.detail.verb));
      if (entry.detail.verb === "Connect") agent = null;
    } else if (entry.kind === "verb.end") open.pop();
    else if (entry.kind === "agent.talking" || entry.kind === "agent.listening")
      agent = { talking: entry.kind === "agent.talking", since: entry.at };
  }
  const verb = open[open.length - 1];
  return { verb, agent: verb === "Connect" ? agent : null };
}

/**
 * Who takes input now: a press or words go in while a Gather or Record runs (a nested prompt counts), or
 * while a `<Connect>` app waits for the caller (it has stopped talking, or not started).
 */
export function listeningVerb(view: TimelineView): string | null {
  const { verb, agent } = runningVerb(view);
  if (verb === "Gather" || verb === "Record") return verb;
  return agent && !agent.talking ? "Connect" : null;
}

/** The agent's turns so far (each a plain record of sandbox ms), and what they add up to. */
export const agentTurns = (view: TimelineView): TurnRecord[] => turnsOf(view.timeline);
export const agentMetricsOf = (view: TimelineView): AgentMetrics => agentMetrics(agentTurns(view));

/**
 * The agent's answer to the first turn after turn `after`: how long it took (`agent.response`), or that it
 * did not come (`agent.unanswered`, with why); undefined while neither is in the timeline.
 */
export function agentAnswer(
  view: TimelineView,
  after: number,
): { n: number; ms: number | null; why?: string } | undefined {
  for (const entry of view.timeline) {
    if (entry.kind !== "agent.response" && entry.kind !== "agent.unanswered") continue;
    const n = Number(entry.detail.n);
    if (n <= after) continue;
    if (entry.kind === "agent.response") return { n, ms: Number(entry.detail.ms) };
    return { n, ms: null, why: String(entry.detail.message) };
  }
  return undefined;
}
