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
  /** It sent something only after the sandbox had given up waiting (agentTurnTimeout). */
  late: boolean;
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
  /** Every stretch in which neither sounded, in order (the first 1,000). */
  silencesMs: number[];
  /**
   * Backchannels the caller said during the turn ("uh-huh" while the agent talked: no turn, no barge-in), and
   * how many of them the agent's audio was cut for (clear, interruption) while one sounded or within
   * `backchannelStopMs` after; both only in a turn that had one.
   */
  backchannels?: number;
  backchannelStops?: number;
}

/** A cut of the agent's audio this soon after a backchannel ended counts as stopping for it. */
export const backchannelStopMs = 1000;

/** Where the conversation's events go: the call's timeline. */
export type ConversationNote = (kind: string, detail: Record<string, unknown>) => void;

export interface Conversation {
  /** The caller starts or stops sounding at `at`; a start is a new turn (with `by`), unless it is a key pressed right after another. */
  caller(at: number, on: boolean): void;
  /** The caller pressed a key at `at` (a turn of no length); keys within a second of each other with no answer between are one turn. */
  key(at: number): void;
  /** The agent's audio starts or stops at `at`; `cut`: it was stopped (clear, interruption) rather than ran out. */
  agent(at: number, on: boolean, cut?: boolean): void;
  /** The agent's answer began at `at` without sound yet (a relay app's first text token). */
  respond(at: number): void;
  /** The caller starts or stops a backchannel at `at`: no new turn, no barge-in (see TurnRecord.backchannels). */
  backchannel(at: number, on: boolean): void;
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

/** Stretches of silence a turn lists (the first ones): an agent that stutters for an hour lists no more. */
export const maxSilencesPerTurn = 1000;

/** Keys pressed this close together with nothing from the agent between them are one turn. */
const keyTurnGapMs = 1000;

/** What the conversation keeps between events. */
interface Talk {
  note: ConversationNote;
  current: TurnRecord | null;
  count: number;
  callerOn: boolean;
  agentOn: boolean;
  agentSince: number;
  /** Both sound since; neither sounds since (null while someone does). */
  bothSince: number | null;
  quietSince: number | null;
  bargeAt: number | null;
  lastKeyAt: number | null;
  last: number;
  closed: boolean;
  /** The turn the sandbox stopped waiting on (an answer to it now is late). */
  gaveUp: number;
  /** A backchannel sounds (null) or the time one ended; backchannels before the caller's first turn. */
  backchannelUntil: number | null | undefined;
  earlyBackchannels: number;
  earlyStops: number;
}

/** Times never go backwards (events of one instant may be told in any order). */
function clamp(t: Talk, at: number): number {
  t.last = Math.max(t.last, at);
  return t.last;
}

function endSilence(t: Talk, at: number): void {
  if (t.quietSince !== null) addSilence(t, at - t.quietSince);
  t.quietSince = null;
}

function addSilence(t: Talk, ms: number): void {
  if (t.current && ms > 0 && t.current.silencesMs.length < maxSilencesPerTurn) t.current.silencesMs.push(ms);
}

/** The agent's speaking and the talk-over up to `at` go to the current turn (none before the caller's first). */
function settle(t: Talk, at: number): void {
  if (t.agentOn) {
    if (t.current) t.current.speakingMs += at - t.agentSince;
    t.agentSince = at;
  }
  if (t.bothSince !== null) {
    if (t.current) t.current.talkOverMs += at - t.bothSince;
    t.bothSince = at;
  }
}

function write(t: Talk): void {
  if (t.current) t.note("agent.turn", { ...t.current, silencesMs: [...t.current.silencesMs] });
}

/** A new turn of the caller's at `at`: the one before is written; the agent still talking is barged in on. */
function begin(t: Talk, at: number, by: TurnRecord["by"]): void {
  settle(t, at);
  write(t);
  t.count++;
  t.current = {
    n: t.count,
    by,
    startedAt: at,
    endedAt: by === "dtmf" ? at : null,
    owed: false,
    answered: false,
    late: false,
    responseMs: null,
    speakingMs: 0,
    talkOverMs: 0,
    bargeIn: t.agentOn ? { stopMs: null, cut: false } : null,
    silencesMs: [],
    ...(t.earlyBackchannels > 0 ? { backchannels: t.earlyBackchannels, backchannelStops: t.earlyStops } : {}),
  };
  t.earlyBackchannels = 0;
  t.earlyStops = 0;
  // The agent stopping from now on stops for this turn (a barge-in), not for an earlier backchannel.
  t.backchannelUntil = undefined;
  t.bargeAt = t.agentOn ? at : null;
}

/** The first answer after the caller's turn ended: the response latency. */
function responded(t: Talk, at: number): void {
  const { current } = t;
  if (!current || current.endedAt === null || current.responseMs !== null || t.callerOn) return;
  current.responseMs = at - current.endedAt;
  t.note("agent.response", { n: current.n, ms: current.responseMs });
}

function callerSound(t: Talk, at: number, on: boolean): void {
  if (on) {
    endSilence(t, at);
    begin(t, at, "speech");
    t.callerOn = true;
    t.lastKeyAt = null;
    if (t.agentOn) t.bothSince = at;
    return;
  }
  settle(t, at);
  t.callerOn = false;
  t.bothSince = null;
  if (t.current) t.current.endedAt = at;
  if (!t.agentOn) t.quietSince = at;
}

function agentSound(t: Talk, at: number, on: boolean, cut: boolean): void {
  if (on) {
    endSilence(t, at);
    t.agentOn = true;
    t.agentSince = at;
    if (t.callerOn) t.bothSince = at;
    responded(t, at);
    return;
  }
  settle(t, at);
  t.agentOn = false;
  t.bothSince = null;
  const { current } = t;
  if (cut && t.backchannelUntil !== undefined) {
    if (t.backchannelUntil === null || at - t.backchannelUntil <= backchannelStopMs) {
      if (current) current.backchannelStops = (current.backchannelStops ?? 0) + 1;
      else t.earlyStops++;
      t.note("agent.backchannel-stop", { n: current?.n ?? 0 });
    }
    t.backchannelUntil = undefined;
  }
  if (current?.bargeIn && t.bargeAt !== null && current.bargeIn.stopMs === null) {
    current.bargeIn = { stopMs: at - t.bargeAt, cut };
    t.note("agent.barge-in", { n: current.n, stopMs: at - t.bargeAt, cut });
  }
  t.bargeAt = null;
  if (!t.callerOn) t.quietSince = at;
}

/** A backchannel: the silence it breaks ends, it is counted in the turn; the agent cutting its audio for it is noted. */
function backchannelSound(t: Talk, at: number, on: boolean): void {
  if (!on) {
    // Its window for a stop opens now, unless the agent already stopped for it.
    if (t.backchannelUntil === null) t.backchannelUntil = at;
    if (!t.agentOn && !t.callerOn) t.quietSince = at;
    return;
  }
  endSilence(t, at);
  t.backchannelUntil = null;
  if (!t.current) {
    t.earlyBackchannels++;
    return;
  }
  t.current.backchannels = (t.current.backchannels ?? 0) + 1;
  t.current.backchannelStops ??= 0;
}

function pressKey(t: Talk, at: number): void {
  endSilence(t, at);
  const { current } = t;
  const same =
    current?.by === "dtmf" && t.lastKeyAt !== null && at - t.lastKeyAt <= keyTurnGapMs && !current.answered;
  if (same) current.endedAt = at;
  else begin(t, at, "dtmf");
  t.lastKeyAt = at;
  if (!t.agentOn && !t.callerOn) t.quietSince = at;
}

const unansweredMessage = (reason: "timeout" | "closed" | "ended", timeoutMs: number) =>
  reason === "timeout"
    ? `the agent did not answer within ${timeoutMs} ms (agentTurnTimeout)`
    : reason === "closed"
      ? "the agent did not answer: the app closed the socket first"
      : "the agent did not answer: the call ended first";

export function createConversation(start: number, note: ConversationNote): Conversation {
  const t: Talk = {
    note,
    current: null,
    count: 0,
    callerOn: false,
    agentOn: false,
    agentSince: 0,
    bothSince: null,
    quietSince: start,
    bargeAt: null,
    lastKeyAt: null,
    last: start,
    closed: false,
    gaveUp: 0,
    backchannelUntil: undefined,
    earlyBackchannels: 0,
    earlyStops: 0,
  };
  return {
    get turn() {
      return t.count;
    },
    get agentOn() {
      return t.agentOn;
    },
    caller(time, on) {
      if (!t.closed && on !== t.callerOn) callerSound(t, clamp(t, time), on);
    },
    key(time) {
      if (!t.closed) pressKey(t, clamp(t, time));
    },
    agent(time, on, cut = false) {
      if (!t.closed && on !== t.agentOn) agentSound(t, clamp(t, time), on, cut);
    },
    backchannel(time, on) {
      if (!t.closed && !t.callerOn) backchannelSound(t, clamp(t, time), on);
    },
    respond(time) {
      if (!t.closed) responded(t, clamp(t, time));
    },
    owe() {
      if (t.current) t.current.owed = true;
    },
    answered() {
      const { current } = t;
      // What the app sends while the caller's words go on answers nothing yet.
      if (!current || current.endedAt === null || t.callerOn || current.answered || current.late) return;
      if (t.gaveUp !== current.n) current.answered = true;
      else {
        current.late = true;
        note("agent.late", { n: current.n, message: "the agent answered after the sandbox stopped waiting" });
      }
    },
    unanswered(reason, timeoutMs) {
      if (!t.current) return;
      t.gaveUp = t.current.n;
      note("agent.unanswered", { n: t.current.n, reason, message: unansweredMessage(reason, timeoutMs) });
    },
    close(time) {
      if (t.closed) return;
      const at = clamp(t, time);
      settle(t, at);
      if (t.quietSince !== null) addSilence(t, at - t.quietSince);
      write(t);
      t.closed = true;
    },
  };
}
