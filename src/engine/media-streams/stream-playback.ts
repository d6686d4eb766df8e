// A bidirectional stream's playback queue: the app's audio and marks, played to the caller in order, and what the app sends to fill or clear it.
import { type AppMessage, messages } from "./stream-protocol.js";
import { type Queued, refuseStreamMessage, type StreamState, sendToApp } from "./stream-state.js";

/** Audio chunks and marks the app may have queued for playback at once (audio chunks in a row merge into one). */
export const maxQueuedPlayback = 10_000;
/** Bytes of the app's audio queued at once (about 17 minutes of mu-law); more is dropped like too many chunks. */
export const maxQueuedAudioBytes = 8 * 1024 * 1024;

/** Takes `bytes` of the app's queued audio off the front. */
function takeAudio(s: StreamState, bytes: number): Uint8Array {
  const { audio } = s;
  const out = new Uint8Array(bytes);
  let filled = 0;
  while (filled < bytes && audio.length > 0) {
    const chunk = audio[0]!;
    const used = Math.min(bytes - filled, chunk.length - s.audioHead);
    out.set(chunk.subarray(s.audioHead, s.audioHead + used), filled);
    filled += used;
    s.audioHead += used;
    if (s.audioHead === chunk.length) {
      audio.shift();
      s.audioHead = 0;
    }
  }
  s.queuedAudioBytes -= filled;
  return filled === bytes ? out : out.subarray(0, filled);
}

/** Drops the app's queued audio (clear). */
function dropAudio(s: StreamState): void {
  s.audio.length = 0;
  s.audioHead = 0;
  s.queuedAudioBytes = 0;
}

/** Plays `ms` of the app's queued audio from `at`; marks whose audio has all played are echoed back. */
export function playQueued(s: StreamState, ms: number, at: number): void {
  const { playback, host, sid } = s;
  let budget = ms;
  while (playback.length > 0) {
    const head = playback[0]!;
    if (head.kind === "mark") {
      playback.shift();
      s.marksEchoed++;
      host.timeline("stream.mark", { sid, name: head.name });
      sendToApp(s, messages.mark(++s.sequence, sid, head.name));
      continue;
    }
    const used = Math.min(budget, head.ms);
    head.ms -= used;
    budget -= used;
    if (used > 0) host.played(at + (ms - budget - used), takeAudio(s, used * 8));
    s.playedMs += used;
    if (head.ms > 0) break;
    playback.shift();
  }
}

/** False when the item was refused (the queue is full). */
function enqueuePlayback(s: StreamState, item: Queued): boolean {
  const last = s.playback.at(-1);
  if (item.kind === "audio" && last?.kind === "audio") {
    last.ms += item.ms;
    return true;
  }
  if (s.playback.length >= maxQueuedPlayback) {
    refuseStreamMessage(
      s,
      `more than ${maxQueuedPlayback} audio chunks and marks queued; the ${item.kind} was dropped`,
    );
    return false;
  }
  s.playback.push(item);
  return true;
}

/** `media`: the app's audio joins the queue, unless the queue is full. */
function queueMedia(s: StreamState, payload: string): void {
  const bytes = Buffer.from(payload, "base64");
  if (s.queuedAudioBytes + bytes.length > maxQueuedAudioBytes) {
    refuseStreamMessage(s, `more than ${maxQueuedAudioBytes} bytes of audio queued; the media was dropped`);
    return;
  }
  if (!enqueuePlayback(s, { kind: "audio", ms: bytes.length / 8 })) return;
  s.audio.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  s.queuedAudioBytes += bytes.length;
}

/** `mark`: queued behind the audio before it. */
function queueMark(s: StreamState, name: string): void {
  enqueuePlayback(s, { kind: "mark", name });
  // A mark with no audio before it is answered at once.
  playQueued(s, 0, s.host.now());
}

/** `clear`: queued audio is dropped; the marks waiting behind it are answered. */
function clearPlayback(s: StreamState): void {
  const { host, sid } = s;
  dropAudio(s);
  for (const item of s.playback.splice(0)) {
    if (item.kind !== "mark") continue;
    s.marksEchoed++;
    host.timeline("stream.mark", { sid, name: item.name, cleared: true });
    sendToApp(s, messages.mark(++s.sequence, sid, item.name));
  }
  host.timeline("stream.clear", { sid });
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
  if (message.event === "media") queueMedia(s, message.media.payload);
  else if (message.event === "mark") queueMark(s, message.mark.name);
  else clearPlayback(s);
}
