// A call's audio WebSocket: the call's audio as its party hears it, and the browser's microphone as what the party says.
import type { WebSocket } from "ws";
import { errors } from "../domain/errors.js";
import type { PlayMedia } from "../engine/calls/call-audio.js";
import type { SandboxCore } from "../sandbox.js";
import { inspectorApiPath } from "./paths.js";

/** 20 ms of 8 kHz mu-law: one frame each way. */
export const audioFrameBytes = 160;
const frameMs = 20;
/** How far behind the clock the browser hears: an app's audio for an instant is known a frame after it. */
const lagMs = 2 * frameMs;
/** A browser this far behind (a paused tab, a clock jump) skips ahead instead of hearing the past. */
const catchUpMs = 500;
/** Frames waiting for a slow browser beyond this are dropped. */
const backlogLimitBytes = 64 * 1024;
/** The largest message taken from the browser: ten frames. */
export const maxAudioMessageBytes = 10 * audioFrameBytes;

/** Sends what the party hears, a frame per 20 ms of the clock, and keeps what the browser sends as the party's speech. */
export function attachAudio(sandbox: SandboxCore, ws: WebSocket, callSid: string, media?: PlayMedia): void {
  const audio = sandbox.calls.audio;
  const aligned = (t: number) => Math.floor(t / frameMs) * frameMs;
  let cursor = aligned(sandbox.clock.now() - lagMs);
  const pump = () => {
    const now = sandbox.clock.now();
    if (now - cursor > catchUpMs) cursor = aligned(now - lagMs);
    while (cursor + lagMs <= now) {
      const frame = audio.heard(callSid, cursor, media);
      if (!frame) {
        ws.close(1000, "the call is over");
        return;
      }
      if (ws.bufferedAmount < backlogLimitBytes) ws.send(frame);
      cursor += frameMs;
    }
  };
  const timer = setInterval(pump, frameMs);
  timer.unref();
  ws.on("message", (data, isBinary) => {
    const bytes = data as Buffer;
    if (!isBinary || bytes.length === 0 || bytes.length % audioFrameBytes !== 0) {
      ws.close(1003, `send binary frames of ${audioFrameBytes} bytes of 8 kHz mu-law (20 ms each)`);
      return;
    }
    if (!audio.speak(callSid, new Uint8Array(bytes))) ws.close(1000, "the call is over");
  });
  ws.on("close", () => clearInterval(timer));
}

export const audioPath = new RegExp(`^${inspectorApiPath}/calls/(CA[0-9a-f]{32})/audio$`);

/** The call whose audio `path` asks for: 404 for one that is not there, 400 for one that is over. */
export function audioCallOf(sandbox: SandboxCore, path: string): string | null {
  const callSid = audioPath.exec(path)?.[1];
  if (!callSid) return null;
  if (!sandbox.store.calls.has(callSid)) throw errors.notFound(path);
  if (!sandbox.calls.audio.live(callSid)) {
    throw errors.invalidParameter(
      "CallSid",
      `${callSid} is not a live call: audio is only for a call in progress or ringing`,
    );
  }
  return callSid;
}
