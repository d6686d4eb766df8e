// One media stream: a real WebSocket client to the app's URL, paced on the sandbox clock, never awaited on the real clock.
import type { StreamControl, StreamSpec } from "../../markup/effects.js";
import { eventClass } from "../time/scheduler.js";
import { startStream } from "./stream-connect.js";
import { messages } from "./stream-protocol.js";
import {
  awaitStreamAnswer,
  finishStream,
  lockstep,
  newStreamState,
  releasePlayback,
  type StreamSessionHost,
  type StreamState,
  sendToApp,
  streamVirtual,
} from "./stream-state.js";

export interface StreamSession extends StreamControl {
  /** Drops the socket at once, without a stop message (sandbox reset). */
  terminate(): void;
}

/** The caller pressed a key: the app hears it, and its answer is awaited. */
function sendStreamDtmf(s: StreamState, digit: string): void {
  if (s.state !== "open") return;
  s.host.timeline("stream.dtmf", { sid: s.sid, digit });
  s.conversation?.key(s.host.now());
  sendToApp(s, messages.dtmf(++s.sequence, s.sid, digit));
  awaitStreamAnswer(s);
}

/** The verb or the call stops the stream: `stop` to the app, the stream-stopped callback, a clean close. */
function stopStream(s: StreamState): void {
  if (s.state === "ended" || s.state === "stopping") return;
  const { host, sid, spec } = s;
  if (s.state === "connecting") {
    s.socket?.terminate();
    finishStream(s, false);
    return;
  }
  s.state = "stopping";
  host.scheduler.cancel(s.tick);
  s.tick = null;
  sendToApp(s, messages.stop(++s.sequence, sid, host.accountSid, host.callSid));
  host.statusCallback(spec, sid, "stream-stopped");
  s.socket?.close(1000);
  finishStream(s, false);
  // Virtual clock: the clock waits for the app to read `stop` and the close to finish, as it waits for frames.
  if (streamVirtual(s)) host.scheduler.after(0, eventClass.control, `stream stop ${sid}`, () => lockstep(s));
}

/** Sandbox reset: the socket drops at once and nothing more is scheduled. */
function terminateStream(s: StreamState): void {
  s.socket?.terminate();
  releasePlayback(s);
  if (s.state !== "ended") {
    s.state = "ended";
    s.host.scheduler.cancel(s.quiet);
    s.host.scheduler.cancel(s.tick);
    s.host.scheduler.cancel(s.owed?.timer);
    s.wake?.();
  }
}

export function openStreamSession(host: StreamSessionHost, sid: string, spec: StreamSpec): StreamSession {
  const s = newStreamState(host, sid, spec);
  host.scheduler.after(0, eventClass.input, `stream connect ${sid}`, () => startStream(s));
  return {
    sid,
    ended: () => s.state === "ended",
    dtmf: (digit) => sendStreamDtmf(s, digit),
    stop: () => stopStream(s),
    terminate: () => terminateStream(s),
  };
}
