// A media stream's state and what the engine gives it, with the steps every part of the session shares: send, refuse, fail, finish.
import type { StreamSpec } from "../../markup/effects.js";
import type { ClockMode } from "../time/clock.js";
import { type EventHandle, eventClass, type Scheduler } from "../time/scheduler.js";
import { quietAgentMs } from "./agent-turns.js";
import type { AppSocket } from "./app-socket.js";
import type { Conversation } from "./conversation.js";
import type { FrameSenders } from "./frame-senders.js";
import { type BudgetMember, leaveBudget, type PlaybackBudget } from "./stream-budget.js";
import { type ByteQueue, clearBytes, newByteQueue } from "./stream-bytes.js";
import {
  createLine,
  createLineQueue,
  type Line,
  type LineConditions,
  type LineQueue,
} from "./stream-line.js";
import { messages } from "./stream-protocol.js";

export type StreamEvent = "stream-started" | "stream-stopped" | "stream-error";

/** The caller's words as a stream hears them. */
export interface CallerWords {
  start: number;
  end: number;
  heardEnd: number;
  /** A backchannel ("uh-huh" while the agent talks): no turn of the caller's. */
  backchannel?: true;
}

/** What a session needs from the engine; every call into it happens inside a scheduler event or a socket event. */
export interface StreamSessionHost {
  readonly scheduler: Scheduler;
  clockMode(): ClockMode;
  now(): number;
  readonly accountSid: string;
  readonly callSid: string;
  /** Signs the upgrade request (X-Twilio-Signature). */
  readonly authToken: string;
  /**
   * The caller's words at `at`, if any: when they started, when they end, and when their sound ends (the
   * silence after it is theirs too: when it begins, the app owes an answer).
   */
  callerUtterance(at: number): CallerWords | undefined;
  /** Real ms the virtual clock waits for an app that owes the call an answer (agentTurnTimeout). */
  agentTurnTimeoutMs(): number;
  /** The sandbox waited `ms` of real time for the app's answer to turn `n` (null: it did not answer). */
  agentWaited(n: number, ms: number | null): void;
  /**
   * The 20 ms of a track from `at`, base64 mu-law: inbound the caller's speech, outbound what the sandbox
   * plays to the caller (<Say>, <Play>, digits).
   */
  trackAudio(track: "inbound" | "outbound", at: number): string;
  /** The app's audio that played to the caller from `at` (mu-law, 8 bytes a millisecond): recordings keep it. */
  played(at: number, audio: Uint8Array): void;
  timeline(kind: string, detail?: Record<string, unknown>): void;
  alert(code: number, message: string, level?: "error" | "warning"): void;
  statusCallback(spec: StreamSpec, sid: string, event: StreamEvent, error?: string): void;
  /** A bidirectional stream's app stopped playing audio (or has not started): the caller's next untimed step answers it. */
  listening(): void;
  /** The app's audio starts playing to the caller. */
  talking(): void;
  /** The stream is over (closed by either side, or never opened): the verb waiting on it moves on. */
  ended(sid: string): void;
  /** What every bidirectional stream's playback queue holds together. */
  readonly budget: PlaybackBudget;
  /** The caller's line: noise, lost frames and jitter on the caller's frames (stream-line.ts). */
  readonly line?: LineConditions;
  /** Real clock: the threads that hold streams' sockets and send their frames (none: this thread does). */
  readonly frameSenders?: FrameSenders | null;
}

type State = "connecting" | "open" | "stopping" | "ended";
/** A run of the app's audio (its bytes, 8 a millisecond, are in the stream's `audio`) or a mark behind it. */
export type Queued = { kind: "audio"; bytes: number } | { kind: "mark"; name: string };

/** One stream's state: what the session's named steps share. */
export interface StreamState {
  readonly host: StreamSessionHost;
  readonly sid: string;
  readonly spec: StreamSpec;
  state: State;
  socket: AppSocket | null;
  sequence: number;
  chunk: number;
  startedAt: number;
  tick: EventHandle | null;
  readonly playback: Queued[];
  /** The app's queued audio bytes, in step with the queue's audio runs. */
  readonly audio: ByteQueue;
  /** The stream's place in the budget every bidirectional stream's queue shares (stream-budget.ts). */
  readonly member: BudgetMember;
  /** App messages dropped because the stream held its share of the budget. */
  overBudget: number;
  /** Real clock: the socket is not read while the stream holds its share (it resumes at half of it). */
  paused: boolean;
  playedMs: number;
  marksEchoed: number;
  droppedFrames: number;
  /** Real clock: frames that left more than a frame's time after their instant (a loaded event loop). */
  lateFrames: number;
  refused: number;
  /** The app's audio is playing now, and how much of it has played since it started (one utterance). */
  talking: boolean;
  utteranceMs: number;
  /** The caller's words at the last frame (`heard`: their sound has ended); when they end, `quiet` is armed. */
  utterance: (CallerWords & { heard: boolean }) | undefined;
  quiet: EventHandle | null;
  /** Turns, answers, barge-ins, talk-over and silences, written to the timeline as `agent.*` entries. */
  conversation: Conversation | null;
  /**
   * The caller's turn the app owes an answer to (stream-agent.ts): its number, since when (real ms), and
   * whether the app has sent something since.
   */
  owed: { n: number; realSince: number; answered: boolean; timer: EventHandle | null } | null;
  /** Virtual clock: frames sent while the clock waited for the app's answer (they take no sandbox time). */
  heldFrames: number;
  /**
   * Media messages since the caller's words began or the app's last `clear`: an app may take the last silent
   * frames of the words as their end and answer before the words are over (then it owes nothing more).
   */
  mediaSinceCaller: number;
  /** Wakes the wait for the app's answer when a message or the close comes. */
  wake: (() => void) | null;
  /** Virtual clock: the app's answer plays in step with real time, frame by frame from this real instant. */
  paceAt: number | null;
  /** Where the app's audio was audible in the frame playing now (ms into it), and when it last was (clock ms). */
  frameSound: { from: number; to: number } | null;
  soundEnd: number;
  /** Message kinds sent to and taken from the app, in the order each first went (for expectations). */
  readonly sent: Set<string>;
  readonly received: Set<string>;
  endedBy: "app" | "call" | "error";
  /** The caller's line, if the party has one; real clock with jitter: the frames it holds back. */
  readonly line: Line | null;
  readonly lineQueue: LineQueue | null;
}

export function newStreamState(host: StreamSessionHost, sid: string, spec: StreamSpec): StreamState {
  return {
    host,
    sid,
    spec,
    state: "connecting",
    socket: null,
    sequence: 0,
    chunk: 0,
    startedAt: 0,
    tick: null,
    playback: [],
    audio: newByteQueue(),
    // The playback part gives the member its way to drop (stream-playback.ts, joinPlayback).
    member: { cost: 0, shedTo: () => undefined },
    overBudget: 0,
    paused: false,
    playedMs: 0,
    marksEchoed: 0,
    droppedFrames: 0,
    lateFrames: 0,
    refused: 0,
    talking: false,
    utteranceMs: 0,
    utterance: undefined,
    quiet: null,
    conversation: null,
    owed: null,
    heldFrames: 0,
    mediaSinceCaller: 0,
    wake: null,
    paceAt: null,
    frameSound: null,
    soundEnd: 0,
    sent: new Set<string>(),
    received: new Set<string>(),
    endedBy: "call",
    line: host.line ? createLine(host.line) : null,
    // A frame sender holds jittered frames itself (each leaves at its instant plus the line's delay).
    lineQueue:
      host.line?.jitter && host.clockMode() !== "virtual" && !host.frameSenders ? createLineQueue() : null,
  };
}

export const streamVirtual = (s: StreamState) => s.host.clockMode() === "virtual";

export function sendToApp(s: StreamState, message: { event: string }): void {
  s.sent.add(message.event);
  // What the line holds back goes first: a mark, dtmf or stop follows the frames before it.
  s.lineQueue?.flush();
  s.socket?.send(message);
}

/**
 * One media frame of `track` (chunk `s.chunk`, due at clock time `instant`) to the app. The caller's frames
 * pass the line: a lost one is not sent (its sequence number is skipped), noise goes on the rest, and (real
 * clock) jitter holds them back. True when the frame went to the socket.
 */
export function sendMedia(
  s: StreamState,
  track: "inbound" | "outbound",
  payload: string,
  instant: number,
): boolean {
  const sequence = ++s.sequence;
  const { line, lineQueue, socket } = s;
  const caller = track === "inbound" && line !== null;
  if (caller && line.lost()) return false;
  const text = messages.mediaText(sequence, s.sid, track, s.chunk, caller ? line.noisy(payload) : payload);
  s.sent.add("media");
  if (!socket) return false;
  // A frame sender: the frame leaves at its own instant, whatever this thread does meanwhile.
  if (socket.sendDelayMs > 0) socket.sendFrame(text, instant - s.host.now() + (caller ? line.delayMs() : 0));
  else if (lineQueue) lineQueue.hold(text, caller ? line.delayMs() : 0, (held) => s.socket?.sendText(held));
  else socket.sendText(text);
  return true;
}

/** Virtual clock: the app has read everything sent so far (see app-socket.ts). */
export const lockstep = (s: StreamState): Promise<void> => s.socket?.caughtUp() ?? Promise.resolve();

/** The caller's turn ended: if the app plays nothing for a while, the caller may go on. */
export function awaitStreamAnswer(s: StreamState): void {
  if (!s.spec.bidirectional) return;
  const { scheduler } = s.host;
  scheduler.cancel(s.quiet);
  s.quiet = scheduler.after(quietAgentMs, eventClass.timer, `stream quiet ${s.sid}`, () => {
    s.quiet = null;
    if (s.state === "open" && !s.talking) s.host.listening();
  });
}

/** A message Twilio would not take: warning 31951 once per stream (as Twilio sends it), the rest only counted. */
export function refuseStreamMessage(s: StreamState, reason: string): void {
  s.refused++;
  if (s.refused === 1) {
    s.host.alert(31951, `Stream - Protocol - Invalid Message: ${reason} (${s.spec.url})`, "warning");
  }
}

/** The stream plays no more: its queue goes, and so does its place in the budget. */
export function releasePlayback(s: StreamState): void {
  s.lineQueue?.drop();
  s.playback.length = 0;
  clearBytes(s.audio);
  leaveBudget(s.host.budget, s.member);
  // A paused socket is read again, so its close handshake can finish (what else arrives is not applied).
  if (s.paused) {
    s.paused = false;
    s.socket?.resume();
  }
}

/**
 * The conversation ends with the stream: a turn still owed an answer is recorded as not answered (the app
 * closed first, or the call ended or moved on), and a wait for the answer lets go.
 */
export function endConversation(s: StreamState, reason: "closed" | "ended"): void {
  const { owed, conversation } = s;
  if (owed && !owed.answered) {
    conversation?.unanswered(reason, s.host.agentTurnTimeoutMs());
    s.host.agentWaited(owed.n, null);
  }
  if (owed) s.host.scheduler.cancel(owed.timer);
  s.owed = null;
  s.paceAt = null;
  if (conversation?.agentOn) conversation.agent(s.soundEnd, false);
  conversation?.close(s.host.now());
  s.conversation = null;
  s.wake?.();
}

/** `notify`: the verb waiting on the stream hears of it (not when the verb itself stopped the stream). */
export function finishStream(s: StreamState, notify = true): void {
  if (s.state === "ended") return;
  const { host, sid } = s;
  s.state = "ended";
  host.scheduler.cancel(s.tick);
  host.scheduler.cancel(s.quiet);
  s.tick = null;
  endConversation(s, s.endedBy === "call" ? "ended" : "closed");
  releasePlayback(s);
  if (s.talking) host.timeline("stream.played", { sid, ms: s.utteranceMs });
  host.timeline("stream.ended", {
    sid,
    url: s.spec.url,
    chunks: s.chunk - s.heldFrames,
    playedMs: s.playedMs,
    marks: s.marksEchoed,
    droppedFrames: s.droppedFrames,
    // Only the real clock has late frames: a virtual clock's timeline stays as it was.
    ...(streamVirtual(s) ? {} : { lateFrames: s.socket?.lateFrames ?? s.lateFrames }),
    refused: s.refused,
    overBudget: s.overBudget,
    ...(s.line ? { lineDropped: s.line.dropped } : {}),
    endedBy: s.endedBy,
    sent: [...s.sent],
    received: [...s.received],
  });
  if (notify) host.ended(sid);
}

/** The stream could not start or broke: an alert, the stream-error callback, and the end. */
export function failStream(s: StreamState, code: number, message: string): void {
  if (s.state === "ended") return;
  s.endedBy = "error";
  s.host.alert(code, `${message} (${s.spec.url})`);
  s.host.statusCallback(s.spec, s.sid, "stream-error", message);
  s.socket?.terminate();
  finishStream(s);
}
