// The inspector's turns of a call with a voice agent: each caller turn with what the agent did, and the call's figures.
import type { TimelineEntry } from "../../engine/calls/call-runtime.js";
import { agentMetrics, turnsOf } from "../../engine/media-streams/agent-metrics.js";
import type { TurnRecord } from "../../engine/media-streams/conversation.js";
import type { SandboxCore } from "../../sandbox.js";

/** A turn's words are shown up to this many characters. */
const saidLimit = 200;
/** A caller's words start within a frame or two of the turn they make. */
const slackMs = 40;

/** Whether the timeline shows a `<Connect>` app (a bidirectional media stream or ConversationRelay). */
const hadAgent = (timeline: readonly TimelineEntry[]) =>
  timeline.some(
    (e) => e.kind === "relay.started" || (e.kind === "stream.started" && e.detail.bidirectional === true),
  );

/** What the caller said or pressed in each turn, from the timeline's own entries (both are in time order). */
function wordsOf(timeline: readonly TimelineEntry[], turns: readonly TurnRecord[]): (string | null)[] {
  const told = timeline.filter(
    (e) => e.kind === "party.say" || e.kind === "party.press" || e.kind === "relay.prompt",
  );
  let next = 0;
  return turns.map((turn) => {
    const from = turn.startedAt - slackMs;
    const until = (turn.endedAt ?? turn.startedAt) + slackMs;
    while (next < told.length && told[next]!.at < from) next++;
    const inTurn: TimelineEntry[] = [];
    for (let i = next; i < told.length && told[i]!.at <= until; i++) inTurn.push(told[i]!);
    const kind = turn.by === "dtmf" ? ["party.press"] : ["party.say", "relay.prompt"];
    const own = inTurn.filter((e) => kind.includes(e.kind));
    // The caller's own words; a relay's prompt (its transcript of them) only when they are not in the timeline.
    const said = own.some((e) => e.kind === "party.say") ? own.filter((e) => e.kind !== "relay.prompt") : own;
    const text = said
      .map((e) => String(e.detail.text ?? e.detail.digits ?? ""))
      .join(" ")
      .trim();
    return text === "" ? null : text.slice(0, saidLimit);
  });
}

/**
 * A call's agent turns, oldest first: the first `limit` of them, each with what the caller said in it,
 * and the figures over all of them (the same `agentMetrics` the phone API and the reports give).
 * Undefined for a call the store does not hold.
 */
export function describeTurns(sandbox: SandboxCore, sid: string, limit: number) {
  const call = sandbox.store.calls.get(sid);
  if (!call) return undefined;
  const timeline = sandbox.calls.timeline(sid);
  const turns = turnsOf(timeline);
  const shown = turns.slice(0, limit);
  const said = wordsOf(timeline, shown);
  return {
    call_sid: sid,
    start: call.created_at,
    agent: hadAgent(timeline),
    total: turns.length,
    turns: shown.map((turn, i) => ({ ...turn, said: said[i] })),
    metrics: agentMetrics(turns),
  };
}
