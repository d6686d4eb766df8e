// A stream's pacing on the sandbox clock: one frame every 20 ms, carrying the call's audio out and playing the app's audio in.
import { eventClass } from "../time/scheduler.js";
import { afterFrame, followAgent, followCaller } from "./stream-agent.js";
import { playQueued } from "./stream-playback.js";
import { frameMs, trackNames } from "./stream-protocol.js";
import { type StreamState, sendMedia, streamVirtual } from "./stream-state.js";

/** Sent but unread bytes kept for a slow app; past this, media frames are dropped instead of piling up. */
export const maxBufferedBytes = 1024 * 1024;

/**
 * Chunk `n` covers [20(n-1), 20n) ms of the stream; it leaves when its 20 ms have passed. Frames sent while
 * the virtual clock waited for the app take no sandbox time (stream-agent.ts).
 */
export function scheduleFrame(s: StreamState): void {
  s.tick = s.host.scheduler.at(
    s.startedAt + (s.chunk - s.heldFrames + 1) * frameMs,
    eventClass.input,
    `stream ${s.sid}`,
    () => sendFrame(s),
  );
}

/** The app talks from the first frame its audio plays until a frame plays none of it. */
function followApp(s: StreamState, at: number, playedBefore: number): void {
  const { host } = s;
  followAgent(s, at);
  if (s.playedMs > playedBefore) {
    if (!s.talking) {
      s.talking = true;
      host.scheduler.cancel(s.quiet);
      s.quiet = null;
      host.talking();
    }
    s.utteranceMs += s.playedMs - playedBefore;
  } else if (s.talking) {
    s.talking = false;
    host.timeline("stream.played", { sid: s.sid, ms: s.utteranceMs });
    s.utteranceMs = 0;
    host.listening();
  }
}

/** The next 20 ms: the tracks' media out (unless the app is too slow to read), the app's audio played, the next frame scheduled. */
function sendFrame(s: StreamState): Promise<void> | undefined {
  s.tick = null;
  const { socket, host } = s;
  if (s.state !== "open" || !socket) return undefined;
  s.chunk++;
  const at = s.startedAt + (s.chunk - s.heldFrames - 1) * frameMs;
  // The frame was due a frame after `at`; on the real clock, one more frame's time behind that is late.
  // Each track's frame sent counts (not one a lossy line lost, nor one dropped for a slow app), as a frame
  // sender counts its own: what it sends late.
  const late = !streamVirtual(s) && socket.lateFrames === null && host.now() - (at + frameMs) > frameMs;
  followCaller(s, at);
  if (socket.bufferedAmount > maxBufferedBytes) s.droppedFrames++;
  else {
    for (const track of trackNames(s.spec.track))
      if (sendMedia(s, track, host.trackAudio(track, at), at + frameMs) && late) s.lateFrames++;
  }
  const before = s.playedMs;
  playQueued(s, frameMs, at);
  followApp(s, at, before);
  scheduleFrame(s);
  return streamVirtual(s) ? afterFrame(s) : undefined;
}
