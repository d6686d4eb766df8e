// A bidirectional stream's playback queue: the app's audio and marks, played to the caller in order, and what the app sends to fill or clear it.

import { audibleSpan } from "./stream-audio.js";
import { giveBack, joinBudget, queueItemBytes, shareOf, takeFromBudget } from "./stream-budget.js";
import { clearBytes, dropNewestBytes, pushBytes, takeBytes } from "./stream-bytes.js";
import { type AppMessage, messages } from "./stream-protocol.js";
import {
  type Queued,
  refuseStreamMessage,
  type StreamState,
  sendToApp,
  streamVirtual,
} from "./stream-state.js";

/** Audio chunks and marks the app may have queued for playback at once (audio chunks in a row merge into one). */
export const maxQueuedPlayback = 10_000;
/** Bytes of the app's audio queued at once (about 17 minutes of mu-law); more is dropped like too many chunks. */
export const maxQueuedAudioBytes = 8 * 1024 * 1024;

/** What a mark is counted as in the budget: its object and its name (two bytes a character). */
const markBytes = (name: string) => queueItemBytes + 2 * name.length;

/** The stream opens for playback: it takes its place in the budget, with its way of dropping its newest items. */
export function joinPlayback(s: StreamState): void {
  s.member.shedTo = (bytes) => shedPlayback(s, bytes);
  joinBudget(s.host.budget, s.member);
}

/** Drops the newest queued items (audio from its end, marks whole, never echoed) until the stream holds `bytes`. */
function shedPlayback(s: StreamState, bytes: number): void {
  const { budget } = s.host;
  const before = s.member.cost;
  while (s.member.cost > bytes && s.playback.length > 0) {
    const last = s.playback.at(-1)!;
    const excess = s.member.cost - bytes;
    if (last.kind === "mark") {
      s.playback.pop();
      giveBack(budget, s.member, markBytes(last.name));
    } else if (excess >= last.bytes) {
      s.playback.pop();
      giveBack(budget, s.member, dropNewestBytes(s.audio, last.bytes) + queueItemBytes);
    } else {
      last.bytes -= excess;
      giveBack(budget, s.member, dropNewestBytes(s.audio, excess));
    }
  }
  s.host.timeline("stream.shed", { sid: s.sid, bytes: before - s.member.cost, share: bytes });
}

/** Where in the frame (from `offset` bytes into it) the app's audio is audible, for the conversation's metrics. */
function hearSound(s: StreamState, offset: number, bytes: Uint8Array): void {
  if (!s.conversation) return;
  const span = audibleSpan(bytes);
  if (!span) return;
  const from = Math.floor((offset + span.from) / 8);
  const to = Math.ceil((offset + span.to) / 8);
  s.frameSound = { from: Math.min(s.frameSound?.from ?? from, from), to };
}

/** Plays `ms` of the app's queued audio from `at`; marks whose audio has all played are echoed back. */
export function playQueued(s: StreamState, ms: number, at: number): void {
  const { playback, host, sid, member } = s;
  const total = ms * 8;
  let budget = total;
  while (playback.length > 0) {
    const head = playback[0]!;
    if (head.kind === "mark") {
      playback.shift();
      giveBack(host.budget, member, markBytes(head.name));
      s.marksEchoed++;
      host.timeline("stream.mark", { sid, name: head.name });
      sendToApp(s, messages.mark(++s.sequence, sid, head.name));
      continue;
    }
    const used = Math.min(budget, head.bytes);
    head.bytes -= used;
    budget -= used;
    if (used > 0) {
      const offset = total - budget - used;
      const bytes = takeBytes(s.audio, used);
      host.played(at + offset / 8, bytes);
      hearSound(s, offset, bytes);
      giveBack(host.budget, member, used);
    }
    s.playedMs += used / 8;
    if (head.bytes > 0) break;
    playback.shift();
    giveBack(host.budget, member, queueItemBytes);
  }
  resumeWhenDrained(s);
}

/** A message the stream's share of the budget has no room for: dropped, warned once, and (real clock) reading paused. */
function overBudget(s: StreamState, kind: string): void {
  s.overBudget++;
  if (s.overBudget === 1) {
    s.host.alert(
      31951,
      `Stream - Protocol - Invalid Message: the stream holds its share of the sandbox's media budget (${shareOf(s.host.budget)} bytes: ${s.host.budget.limitBytes} shared by ${s.host.budget.members.size} streams); the ${kind} was dropped (${s.spec.url})`,
      "warning",
    );
  }
  // On the real clock the app's socket is not read until the queue has played down to half its share, so
  // a flood waits in the app's own buffers; the virtual clock reads on, so runs stay the same bytes.
  if (!streamVirtual(s) && !s.paused && s.socket) {
    s.paused = true;
    s.socket.pause();
    s.host.timeline("stream.paused", { sid: s.sid, queued: s.member.cost });
  }
}

function resumeWhenDrained(s: StreamState): void {
  if (!s.paused || s.member.cost > shareOf(s.host.budget) / 2) return;
  s.paused = false;
  s.socket?.resume();
  s.host.timeline("stream.resumed", { sid: s.sid, queued: s.member.cost });
}

/** False when the item was refused (the queue is full, or the stream holds its share of the budget). */
function enqueuePlayback(s: StreamState, item: Queued, bytes: number): boolean {
  const last = s.playback.at(-1);
  if (item.kind === "audio" && last?.kind === "audio") {
    if (!takeFromBudget(s.host.budget, s.member, bytes)) {
      overBudget(s, "media");
      return false;
    }
    last.bytes += item.bytes;
    return true;
  }
  if (s.playback.length >= maxQueuedPlayback) {
    refuseStreamMessage(
      s,
      `more than ${maxQueuedPlayback} audio chunks and marks queued; the ${item.kind} was dropped`,
    );
    return false;
  }
  const cost = item.kind === "mark" ? markBytes(item.name) : bytes + queueItemBytes;
  if (!takeFromBudget(s.host.budget, s.member, cost)) {
    overBudget(s, item.kind === "mark" ? "mark" : "media");
    return false;
  }
  s.playback.push(item);
  return true;
}

/** `media`: the app's audio joins the queue, unless the queue is full. */
function queueMedia(s: StreamState, payload: string): void {
  const bytes = Buffer.from(payload, "base64");
  if (s.audio.length + bytes.length > maxQueuedAudioBytes) {
    refuseStreamMessage(s, `more than ${maxQueuedAudioBytes} bytes of audio queued; the media was dropped`);
    return;
  }
  if (!enqueuePlayback(s, { kind: "audio", bytes: bytes.length }, bytes.length)) return;
  pushBytes(s.audio, bytes);
}

/** `mark`: queued behind the audio before it. */
function queueMark(s: StreamState, name: string): void {
  enqueuePlayback(s, { kind: "mark", name }, 0);
  // A mark with no audio before it is answered at once.
  playQueued(s, 0, s.host.now());
}

/** `clear`: queued audio is dropped; the marks waiting behind it are answered. */
function clearPlayback(s: StreamState): void {
  const { host, sid } = s;
  clearBytes(s.audio);
  const items = s.playback.splice(0);
  // What played was heard, to its last audible sample; the rest is cut.
  if (s.conversation?.agentOn && items.some((item) => item.kind === "audio"))
    s.conversation.agent(s.soundEnd, false, true);
  // Everything queued goes at once: the stream holds nothing in the budget now.
  giveBack(host.budget, s.member, s.member.cost);
  for (const item of items) {
    if (item.kind !== "mark") continue;
    s.marksEchoed++;
    host.timeline("stream.mark", { sid, name: item.name, cleared: true });
    sendToApp(s, messages.mark(++s.sequence, sid, item.name));
  }
  host.timeline("stream.clear", { sid });
  resumeWhenDrained(s);
}

/** A well-formed message from the app: media, mark or clear, on a bidirectional stream of this sid only. */
export function applyStreamMessage(s: StreamState, message: AppMessage): void {
  s.received.add(message.event);
  if (message.streamSid !== s.sid) {
    refuseStreamMessage(s, `streamSid ${JSON.stringify(message.streamSid)} is not this stream's (${s.sid})`);
    return;
  }
  if (!s.spec.bidirectional) {
    refuseStreamMessage(s, `a unidirectional stream takes no ${message.event} messages`);
    return;
  }
  if (message.event === "media") {
    s.mediaSinceCaller++;
    queueMedia(s, message.media.payload);
  } else if (message.event === "mark") queueMark(s, message.mark.name);
  else {
    s.mediaSinceCaller = 0;
    clearPlayback(s);
  }
}
