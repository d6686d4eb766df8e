// Media streams of live calls: opens each stream's session for its call, wires it to the loop, ends them with the call.
import type { HeardEntry, StreamControl, StreamSpec } from "../markup/effects.js";
import { speechLengthMs } from "../markup/speech-length.js";
import { digitLengthMs, playLengthMs } from "../markup/verbs/play.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { sendCallback } from "./engine-services.js";
import { openStreamSession, type StreamSession } from "./media-streams/stream-session.js";
import { eventClass } from "./scheduler.js";
import { callCookies } from "./webhook-cookies.js";

export interface StreamsPart {
  open(rt: CallRuntime, spec: StreamSpec): StreamControl;
  /** The call is over: every stream still open sends `stop` and closes. */
  callEnded(callSid: string): void;
  /** Drops every socket at once (sandbox reset). */
  reset(): void;
}

/** How long a heard entry sounds: the same lengths the verbs wait for. */
function heardLengthMs(entry: HeardEntry): number {
  if (entry.kind === "say" || entry.kind === "error-prompt") return speechLengthMs(entry.text ?? "");
  if (entry.kind === "digits") return (entry.text?.length ?? 0) * digitLengthMs;
  if (entry.kind === "play") return playLengthMs;
  return 500;
}

export function createStreams(reg: CallRegistry): StreamsPart {
  const { services, parts, note, now } = reg;
  const { ctx, scheduler } = services;
  const live = new Map<string, Map<string, StreamSession>>();

  const open = (rt: CallRuntime, spec: StreamSpec): StreamControl => {
    const call = reg.getCall(rt.sid);
    const sid = ctx.ids.mint("MZ");
    const forget = () => {
      const streams = live.get(rt.sid);
      streams?.delete(sid);
      if (streams?.size === 0) live.delete(rt.sid);
    };
    const session = openStreamSession(
      {
        scheduler,
        clockMode: () => ctx.clock.mode,
        now,
        accountSid: call.account_sid,
        callSid: call.sid,
        callerSpeaking: (at) => {
          for (let i = rt.speech.length - 1; i >= 0 && i >= rt.speech.length - 8; i--) {
            const u = rt.speech[i]!;
            if (u.start <= at && at < u.end) return true;
          }
          return false;
        },
        sandboxSpeaking: (at) => {
          for (let i = rt.heard.length - 1; i >= 0 && i >= rt.heard.length - 8; i--) {
            const entry = rt.heard[i]!;
            if (entry.at <= at && at < entry.at + heardLengthMs(entry)) return true;
          }
          return false;
        },
        timeline: (kind, detail) => note(rt, kind, detail),
        alert: (code, message, level) => reg.alert(rt, code, message, level),
        statusCallback: (streamSpec, streamSid, event, error) => {
          if (!streamSpec.statusCallback) return;
          sendCallback(services, {
            kind: "stream-status",
            url: streamSpec.statusCallback,
            method: streamSpec.statusCallbackMethod,
            params: {
              AccountSid: call.account_sid,
              CallSid: call.sid,
              StreamSid: streamSid,
              StreamName: streamSpec.name ?? streamSid,
              StreamEvent: event,
              ...(error !== undefined ? { StreamError: error } : {}),
              Timestamp: new Date(now()).toISOString(),
            },
            accountSid: call.account_sid,
            callSid: call.sid,
            orderingKey: call.parent_call_sid ?? call.sid,
            cookies: callCookies(call.sid),
          });
        },
        ended: (streamSid) => {
          forget();
          scheduler.after(0, eventClass.continuation, `stream end ${rt.sid}`, () =>
            parts.program.deliver(rt, { kind: "signal", name: "stream", detail: { sid: streamSid } }, true),
          );
        },
      },
      sid,
      spec,
    );
    if (!live.has(rt.sid)) live.set(rt.sid, new Map());
    live.get(rt.sid)!.set(sid, session);
    return {
      sid,
      ended: session.ended,
      dtmf: session.dtmf,
      stop() {
        forget();
        session.stop();
      },
    };
  };

  return {
    open,
    callEnded(callSid) {
      const streams = live.get(callSid);
      if (!streams) return;
      live.delete(callSid);
      for (const session of streams.values()) session.stop();
    },
    reset() {
      for (const streams of live.values()) for (const session of streams.values()) session.terminate();
      live.clear();
    },
  };
}
