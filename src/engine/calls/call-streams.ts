// Media streams of live calls: opens each stream's session for its call, keeps its Stream record, ends them with the call.
import { errors } from "../../domain/errors.js";
import type { RelayControl, RelaySpec, StreamControl, StreamSpec } from "../../markup/effects.js";
import { callCookies } from "../callbacks/webhook-cookies.js";
import { sendCallback } from "../context/engine-services.js";
import { openRelaySession } from "../media-streams/relay-session.js";
import { framePayloads, sounding, speechFrame } from "../media-streams/stream-audio.js";
import { openStreamSession, type StreamSession } from "../media-streams/stream-session.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { fullLengthMs, heardLengthMs, keepPlayed } from "./sandbox-speech.js";
import { maxStreamsPerCall, type StreamRecord, type StreamsPart } from "./stream-records.js";

/** Stopped streams remembered per call (for fetches by name or sid) before the oldest is forgotten. */
const keptStoppedPerCall = 16;

interface Entry {
  session: StreamSession;
  record: StreamRecord;
  bidirectional: boolean;
}

/** What the sandbox plays to the caller at `at`: the words of a <Say> (or the app's text), a tone for other sounds. */
function outboundFrame(rt: CallRuntime, at: number): string {
  for (let i = rt.heard.length - 1; i >= 0 && i >= rt.heard.length - 8; i--) {
    const heard = rt.heard[i]!;
    const end = heard.at + heardLengthMs(heard);
    if (heard.at > at || at >= end) continue;
    if ((heard.kind === "say" || heard.kind === "error-prompt") && heard.text) {
      // Frames up to a cut carried the whole text at its full length, so they keep doing so until it.
      return speechFrame(
        { start: heard.at, end: heard.at + fullLengthMs(heard), text: heard.text },
        "agent",
        at,
      );
    }
    return framePayloads.sound;
  }
  return framePayloads.silence;
}

export function createStreams(reg: CallRegistry): StreamsPart {
  const { services, parts, note, now } = reg;
  const { ctx, scheduler } = services;
  /** Streams of each live call by sid, in the order they started (stopped ones too, a few). */
  const byCall = new Map<string, Map<string, Entry>>();
  /** Relay sessions open now, by call (one at most: the call waits in its <Connect>). */
  const relays = new Map<string, RelayControl>();

  const entries = (callSid: string) => [...(byCall.get(callSid)?.values() ?? [])];
  const running = (callSid: string) => entries(callSid).filter((e) => e.record.status === "in-progress");

  const markStopped = (entry: Entry) => {
    if (entry.record.status === "stopped") return;
    entry.record.status = "stopped";
    entry.record.updated_at = now();
    const streams = byCall.get(entry.record.call_sid);
    const stopped = entries(entry.record.call_sid).filter((e) => e.record.status === "stopped");
    if (streams && stopped.length > keptStoppedPerCall) streams.delete(stopped[0]!.record.sid);
  };

  const open = (rt: CallRuntime, spec: StreamSpec): StreamControl | null => {
    const call = reg.getCall(rt.sid);
    if (!spec.bidirectional && running(rt.sid).filter((e) => !e.bidirectional).length >= maxStreamsPerCall) {
      return null;
    }
    const sid = ctx.ids.mint("MZ");
    const env = parts.envFor(rt, null);
    let entry: Entry;
    const session = openStreamSession(
      {
        scheduler,
        clockMode: () => ctx.clock.mode,
        now,
        accountSid: call.account_sid,
        callSid: call.sid,
        authToken: ctx.store.accounts.get(call.account_sid)?.auth_token ?? "",
        callerSpeaking: (at) => sounding(rt.speech, at) !== undefined,
        trackAudio: (track, at) => {
          if (track === "inbound") {
            const said = sounding(rt.speech, at);
            return said ? speechFrame(said, "caller", at) : framePayloads.silence;
          }
          return outboundFrame(rt, at);
        },
        played: (at, audio) => keepPlayed(rt, at, audio),
        timeline: (kind, detail) => note(rt, kind, detail),
        alert: (code, message, level) => reg.alert(rt, code, message, level),
        listening: () => env.listening("Connect"),
        talking: () => env.talking(),
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
          markStopped(entry);
          // Only <Connect> waits on its stream; a <Start> stream ends without touching the markup.
          if (!spec.bidirectional) return;
          scheduler.after(0, eventClass.continuation, `stream end ${rt.sid}`, () =>
            parts.program.deliver(rt, { kind: "signal", name: "stream", detail: { sid: streamSid } }, true),
          );
        },
      },
      sid,
      spec,
    );
    entry = {
      session,
      bidirectional: spec.bidirectional,
      record: {
        sid,
        account_sid: call.account_sid,
        call_sid: call.sid,
        name: spec.name,
        status: "in-progress",
        updated_at: now(),
      },
    };
    if (!byCall.has(rt.sid)) byCall.set(rt.sid, new Map());
    byCall.get(rt.sid)!.set(sid, entry);
    return {
      sid,
      ended: session.ended,
      dtmf: session.dtmf,
      stop() {
        markStopped(entry);
        session.stop();
      },
    };
  };

  const stopEntry = (entry: Entry) => {
    markStopped(entry);
    entry.session.stop();
  };

  const openRelay = (rt: CallRuntime, spec: RelaySpec): RelayControl => {
    const call = reg.getCall(rt.sid);
    const env = parts.envFor(rt, null);
    const sessionId = ctx.ids.mint("VX");
    const session = openRelaySession(
      {
        scheduler,
        clockMode: () => ctx.clock.mode,
        now,
        authToken: ctx.store.accounts.get(call.account_sid)?.auth_token ?? "",
        call: {
          accountSid: call.account_sid,
          parentCallSid: call.parent_call_sid ?? "",
          callSid: call.sid,
          from: call.from,
          to: call.to,
          forwardedFrom: call.forwarded_from ?? "",
          callerName: call.caller_name ?? "",
          direction: call.direction,
          callStatus: call.status.toUpperCase(),
        },
        timeline: (kind, detail) => note(rt, kind, detail),
        alert: (code, message, level) => reg.alert(rt, code, message, level),
        heard: (entry) => env.heard(entry),
        cutHeard: (ms, said) => env.cutHeard(ms, said),
        tts: (text, voice, language) => env.tts(text, voice, language),
        listening: () => env.listening("Connect"),
        talking: () => env.talking(),
        ended: () => {
          relays.delete(rt.sid);
          scheduler.after(0, eventClass.continuation, `relay end ${rt.sid}`, () =>
            parts.program.deliver(rt, { kind: "signal", name: "relay", detail: { sessionId } }, true),
          );
        },
      },
      sessionId,
      spec,
    );
    relays.set(rt.sid, session);
    return {
      ...session,
      stop() {
        relays.delete(rt.sid);
        session.stop();
      },
    };
  };

  return {
    open,
    openRelay,
    startFromApi(callSid, spec) {
      const rt = reg.runtime(callSid);
      const call = ctx.store.calls.get(callSid);
      if (!rt || !call || call.status !== "in-progress" || rt.finishing) {
        throw errors.callNotLive(
          callSid,
          call?.status ?? "unknown",
          "a stream can be started only on a live call",
        );
      }
      const control = open(rt, spec);
      if (!control) throw errors.tooManyStreams(callSid, maxStreamsPerCall);
      return byCall.get(callSid)!.get(control.sid)!.record;
    },
    stop(callSid, sidOrName) {
      const all = entries(callSid).filter((e) => !e.bidirectional);
      const entry =
        all.find((e) => e.record.sid === sidOrName) ??
        all.find((e) => e.record.name === sidOrName && e.record.status === "in-progress") ??
        all.find((e) => e.record.name === sidOrName);
      if (!entry) return undefined;
      stopEntry(entry);
      return entry.record;
    },
    stopAll(callSid) {
      for (const entry of running(callSid)) if (!entry.bidirectional) stopEntry(entry);
    },
    callEnded(callSid) {
      const streams = byCall.get(callSid);
      if (!streams) return;
      byCall.delete(callSid);
      for (const entry of streams.values()) entry.session.stop();
    },
    reset() {
      for (const relay of relays.values()) relay.stop();
      relays.clear();
      for (const streams of byCall.values()) for (const entry of streams.values()) entry.session.terminate();
      byCall.clear();
    },
  };
}
