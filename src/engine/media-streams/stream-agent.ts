// A bidirectional stream's agent, turn by turn: who sounds in each frame, the answer the app owes, and (virtual clock) the waits for it.
import { eventClass } from "../time/scheduler.js";
import { heldSilenceMs, realMs, realNow } from "./agent-turns.js";
import { createConversation } from "./conversation.js";
import { frameMs, trackNames } from "./stream-protocol.js";
import { awaitStreamAnswer, lockstep, type StreamState, sendMedia, streamVirtual } from "./stream-state.js";

/** The stream opened: its conversation starts (only a bidirectional stream's app talks back). */
export function startConversation(s: StreamState): void {
  if (!s.spec.bidirectional) return;
  s.conversation = createConversation(s.host.now(), (kind, detail) =>
    s.host.timeline(kind, { sid: s.sid, ...detail }),
  );
}

/**
 * The caller's turn ended with the agent quiet: the app owes an answer. On the virtual clock the next frame
 * waits for it (see afterFrame); on the real clock a timer notes it if none comes in time.
 */
function owe(s: StreamState): void {
  const { conversation, host } = s;
  if (!conversation) return;
  conversation.owe();
  const n = conversation.turn;
  s.owed = { n, realSince: realNow(), answered: false, timer: null };
  if (streamVirtual(s)) return;
  const owed = s.owed;
  owed.timer = host.scheduler.after(
    host.agentTurnTimeoutMs(),
    eventClass.timer,
    `agent turn ${s.sid}`,
    () => {
      owed.timer = null;
      if (s.owed !== owed || owed.answered) return;
      conversation.unanswered("timeout", host.agentTurnTimeoutMs());
      s.owed = null;
    },
  );
}

/** The app sent something (any message): an answer it owed is answered, and its reply plays in real time. */
export function appSpoke(s: StreamState): void {
  const { owed } = s;
  s.conversation?.answered();
  if (!owed || owed.answered) return;
  owed.answered = true;
  s.host.scheduler.cancel(owed.timer);
  s.conversation?.answered();
  if (streamVirtual(s)) {
    s.host.agentWaited(owed.n, realMs(realNow() - owed.realSince));
    s.paceAt = realNow();
  }
  s.wake?.();
}

/**
 * The caller's words at the frame from `at`: their start is a turn; the end of their sound (the app hears
 * silence from there) ends it, and owes an answer when the agent is quiet and has not answered already
 * (audio sent during the words, not cleared since); their end arms the quiet time (`awaitStreamAnswer`).
 */
export function followCaller(s: StreamState, at: number): void {
  const now = s.host.callerUtterance(at);
  const before = s.utterance;
  const { conversation } = s;
  if (before && now?.start !== before.start) {
    if (!before.heard) endWords(s, before, Math.min(at, before.end));
    s.utterance = undefined;
    if (!now) awaitStreamAnswer(s);
  }
  if (now && !s.utterance) {
    s.utterance = { ...now, heard: false };
    if (now.backchannel) conversation?.backchannel(now.start, true);
    else conversation?.caller(now.start, true);
    s.mediaSinceCaller = 0;
  }
  // The first frame with none of their sound: at frame grain, there they ended.
  if (s.utterance && !s.utterance.heard && at >= s.utterance.heardEnd) endWords(s, s.utterance, at);
}

/** The sound of the caller's words ended at `at`: their turn ends, and the app owes an answer if the agent is quiet. */
function endWords(s: StreamState, words: NonNullable<StreamState["utterance"]>, at: number): void {
  words.heard = true;
  // A backchannel is no turn; an agent that stopped for it and is quiet now is waited for like any other.
  if (words.backchannel) s.conversation?.backchannel(at, false);
  else s.conversation?.caller(at, false);
  if (!s.talking && s.playback.length === 0 && s.mediaSinceCaller === 0) owe(s);
}

/**
 * The app's audio in the frame from `at`: the agent sounds from its first audible sample until a frame
 * with none (so the pauses between its words are not silences of the conversation).
 */
export function followAgent(s: StreamState, at: number): void {
  const { conversation, frameSound } = s;
  s.frameSound = null;
  if (!conversation) return;
  if (frameSound) {
    if (!conversation.agentOn) conversation.agent(at + frameSound.from, true);
    s.soundEnd = at + frameSound.to;
  } else if (conversation.agentOn) conversation.agent(s.soundEnd, false);
}

/** A frame while the clock waits for the app: the call as it is now, 20 ms later on the wire, none in the sandbox. */
function sendHeldFrame(s: StreamState): void {
  const { socket, host } = s;
  if (!socket) return;
  s.chunk++;
  s.heldFrames++;
  for (const track of trackNames(s.spec.track))
    sendMedia(s, track, host.trackAudio(track, host.now()), host.now());
}

/**
 * Virtual clock: the app owes an answer and has sent nothing. The clock stands still; the app hears
 * `heldSilenceMs` more of the call (silence), frame after frame as fast as it reads them, so its own
 * end-of-turn detection hears the silence it expects, then no more, until its first message, its close,
 * or `agentTurnTimeout` of real time; then what it sent with that first message is read too (its burst
 * plays from the same instant). An app that answers nothing hears the same frames run after run.
 */
async function holdForAnswer(s: StreamState): Promise<void> {
  const owed = s.owed!;
  const timeoutMs = s.host.agentTurnTimeoutMs();
  const waiting = () => s.state === "open" && s.owed === owed && !owed.answered;
  const left = () => timeoutMs - (realNow() - owed.realSince);
  for (let sent = 0; sent < heldSilenceMs / frameMs && waiting() && left() > 0; sent++) {
    sendHeldFrame(s);
    await lockstep(s);
  }
  if (waiting()) await untilWoken(s, waiting, left());
  if (waiting()) {
    s.conversation?.unanswered("timeout", timeoutMs);
    s.host.agentWaited(owed.n, null);
    s.owed = null;
    return;
  }
  if (owed.answered && s.state === "open") await lockstep(s);
}

/** Real time until `waiting` stops holding (a message or the close wakes the stream) or `ms` pass. */
function untilWoken(s: StreamState, waiting: () => boolean, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const finish = () => {
      clearTimeout(deadline);
      s.wake = null;
      resolve();
    };
    const deadline = setTimeout(finish, Math.max(0, ms));
    s.wake = () => {
      if (!waiting()) finish();
    };
  });
}

/** Virtual clock: while the app's answer plays, each frame takes 20 ms of real time too, so an app that streams it keeps ahead. */
function paceAnswer(s: StreamState): Promise<void> | undefined {
  if (s.paceAt === null) return undefined;
  if (!s.talking && s.playback.length === 0) {
    // The answer has played out (or was no audio): time goes at its own speed again.
    s.paceAt = null;
    return undefined;
  }
  const now = realNow();
  // More queued than the app is waited for: the surplus plays as fast as the app reads.
  if (s.audio.length / 8 > s.host.agentTurnTimeoutMs()) {
    s.paceAt = now;
    return undefined;
  }
  const due = s.paceAt + frameMs;
  s.paceAt = Math.max(due, now);
  return due > now ? new Promise((resolve) => setTimeout(resolve, due - now)) : undefined;
}

/** Virtual clock, after each frame: the app reads it, then the clock waits for an answer owed or for real time while one plays. */
export function afterFrame(s: StreamState): Promise<void> {
  return lockstep(s).then(() => {
    if (s.state !== "open") return undefined;
    if (s.owed && !s.owed.answered) return holdForAnswer(s);
    return paceAnswer(s);
  });
}
