// A <Connect> agent's conversation, turn by turn: who sounds when, the agent's answers, barge-ins, talk-over, silences.

/**
 * One turn of the caller and what the agent did in it, as the `agent.turn` timeline entry carries it: plain
 * numbers, so a run of many calls can add them up. Times are clock ms; durations are ms of the sandbox clock
 * (virtual ms on the virtual clock, where the wait for the agent's answer is not counted: see docs/voice-agents.md).
 */
export interface TurnRecord {
  /** 1 for the caller's first turn. */
  n: number;
  /** What the caller did: spoke, or pressed keys (keys pressed one after another make one turn). */
  by: "speech" | "dtmf";
  /** When the caller's turn started and ended (a key: when it was pressed); null while it goes on. */
  startedAt: number;
  endedAt: number | null;
  /** The app owed an answer: the turn reached it while the agent was quiet. */
  owed: boolean;
  /** The app sent something after the turn ended, within `agentTurnTimeout`. */
  answered: boolean;
  /** From the end of the caller's turn to the agent's first audio (or the relay's first words); null: none came. */
  responseMs: number | null;
  /** How long the agent's audio played during the turn. */
  speakingMs: number;
  /** How long the caller and the agent sounded at once. */
  talkOverMs: number;
  /**
   * The caller started over the agent: how long until the agent's audio stopped (null: it had not when the
   * turn ended), and whether it was cut (the app's `clear`, the relay's interruption) rather than ran out.
   */
  bargeIn: { stopMs: number | null; cut: boolean } | null;
  /** Every stretch in which neither sounded, in order. */
  silencesMs: number[];
}

/** Where the conversation's events go: the call's timeline. */
export type ConversationNote = (kind: string, detail: Record<string, unknown>) => void;

export interface Conversation {
  /** The caller starts or stops sounding at `at`; a start is a new turn (with `by`), unless it is a key pressed right after another. */
  caller(at: number, on: boolean): void;
  /** The caller pressed a key at `at` (a turn of no length); keys within a second of each other with no answer between are one turn. */
  key(at: number): void;
  /** The agent's audio starts or stops at `at`; `cut`: it was stopped (clear, interruption) rather than ran out. */
  agent(at: number, on: boolean, cut?: boolean): void;
  /** The current turn reached the app while the agent was quiet: it owes an answer. */
  owe(): void;
  /** The app answered the current turn (its first message after it). */
  answered(): void;
  /** The app did not answer the current turn: `reason` says why (timed out, closed, the call ended). */
  unanswered(reason: "timeout" | "closed" | "ended", timeoutMs: number): void;
  /** The number of the current turn (0 before the caller's first). */
  readonly turn: number;
  /** Whether the agent sounds now. */
  readonly agentOn: boolean;
  /** The session is over at `at`: what sounds stops, and the last turn is written. */
  close(at: number): void;
}

/** Keys pressed this close together with nothing from the agent between them are one turn. */
const keyTurnGapMs = 1000;

export function createConversation(start: number, note: ConversationNote): Conversation {
  let current: TurnRecord | null = null;
  let count = 0;
  let callerOn = false;
  let agentOn = false;
  let agentSince = 0;
  /** Both sound since; neither sounds since (null while someone does). */
  let bothSince: number | null = null;
  let quietSince: number | null = start;
  let bargeAt: number | null = null;
  let lastKeyAt: number | null = null;
  let last = start;
  let closed = false;

  /** Times never go backwards (events of one instant may be told in any order). */
  const clamp = (at: number) => {
    last = Math.max(last, at);
    return last;
  };
  const endSilence = (at: number) => {
    if (quietSince !== null && current && at > quietSince) current.silencesMs.push(at - quietSince);
    quietSince = null;
  };
  /** The agent's speaking and the talk-over up to `at` go to the current turn. */
  const settle = (at: number) => {
    if (!current) return;
    if (agentOn) {
      current.speakingMs += at - agentSince;
      agentSince = at;
    }
    if (bothSince !== null) {
      current.talkOverMs += at - bothSince;
      bothSince = at;
    }
  };
  const write = () => {
    if (current) note("agent.turn", { ...current, silencesMs: [...current.silencesMs] });
  };
  const begin = (at: number, by: TurnRecord["by"]) => {
    settle(at);
    write();
    count++;
    current = {
      n: count,
      by,
      startedAt: at,
      endedAt: by === "dtmf" ? at : null,
      owed: false,
      answered: false,
      responseMs: null,
      speakingMs: 0,
      talkOverMs: 0,
      bargeIn: null,
      silencesMs: [],
    };
    bargeAt = null;
    if (agentOn) {
      bargeAt = at;
      current.bargeIn = { stopMs: null, cut: false };
    }
  };

  return {
    get turn() {
      return count;
    },
    get agentOn() {
      return agentOn;
    },
    caller(time, on) {
      if (closed || on === callerOn) return;
      const at = clamp(time);
      if (on) {
        endSilence(at);
        begin(at, "speech");
        callerOn = true;
        lastKeyAt = null;
        if (agentOn) bothSince = at;
        return;
      }
      settle(at);
      callerOn = false;
      bothSince = null;
      if (current) current.endedAt = at;
      if (!agentOn) quietSince = at;
    },
    key(time) {
      if (closed) return;
      const at = clamp(time);
      endSilence(at);
      const same =
        current?.by === "dtmf" && lastKeyAt !== null && at - lastKeyAt <= keyTurnGapMs && !current.answered;
      if (same && current) current.endedAt = at;
      else begin(at, "dtmf");
      lastKeyAt = at;
      if (!agentOn && !callerOn) quietSince = at;
    },
    agent(time, on, cut = false) {
      if (closed || on === agentOn) return;
      const at = clamp(time);
      if (on) {
        endSilence(at);
        agentOn = true;
        agentSince = at;
        if (callerOn) bothSince = at;
        if (current && current.endedAt !== null && current.responseMs === null && !callerOn) {
          current.responseMs = at - current.endedAt;
          note("agent.response", { n: current.n, ms: current.responseMs });
        }
        return;
      }
      settle(at);
      agentOn = false;
      bothSince = null;
      if (current && bargeAt !== null && current.bargeIn && current.bargeIn.stopMs === null) {
        current.bargeIn = { stopMs: at - bargeAt, cut };
        note("agent.barge-in", { n: current.n, stopMs: at - bargeAt, cut });
      }
      bargeAt = null;
      if (!callerOn) quietSince = at;
    },
    owe() {
      if (current) current.owed = true;
    },
    answered() {
      if (current) current.answered = true;
    },
    unanswered(reason, timeoutMs) {
      if (!current) return;
      note("agent.unanswered", {
        n: current.n,
        reason,
        message:
          reason === "timeout"
            ? `the agent did not answer within ${timeoutMs} ms (agentTurnTimeout)`
            : reason === "closed"
              ? "the agent did not answer: the app closed the socket first"
              : "the agent did not answer: the call ended first",
      });
    },
    close(time) {
      if (closed) return;
      const at = clamp(time);
      settle(at);
      if (current && quietSince !== null && at > quietSince) current.silencesMs.push(at - quietSince);
      write();
      closed = true;
    },
  };
}
