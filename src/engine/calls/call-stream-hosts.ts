// What a call gives its media stream and ConversationRelay sessions: its audio, timeline, alerts, status callbacks and turns.
import type { Call } from "../../domain/call.js";
import type { StreamSpec, VerbEnv } from "../../markup/effects.js";
import { callCookies } from "../callbacks/webhook-cookies.js";
import { sendCallback } from "../context/engine-services.js";
import type { FrameSenders } from "../media-streams/frame-senders.js";
import type { RelaySessionHost } from "../media-streams/relay-state.js";
import { framePayloads, heardEnd, sounding, speechFrame } from "../media-streams/stream-audio.js";
import type { PlaybackBudget } from "../media-streams/stream-budget.js";
import { frameBytes } from "../media-streams/stream-protocol.js";
import type { StreamEvent, StreamSessionHost } from "../media-streams/stream-state.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { audioAt } from "./caller-audio.js";
import { fullLengthMs, heardLengthMs, isTranscribed, keepPlayed } from "./sandbox-speech.js";

/** What the sandbox plays to the caller at `at`: the words of a <Say> (or the app's text), a tone for other sounds. */
export function outboundFrame(rt: CallRuntime, at: number): string {
  for (let i = rt.heard.length - 1; i >= 0 && i >= rt.heard.length - 8; i--) {
    const heard = rt.heard[i]!;
    const end = heard.at + heardLengthMs(heard);
    if (heard.at > at || at >= end || isTranscribed(heard)) continue;
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

/**
 * A track's 20 ms from `at`: inbound the caller's live audio (a browser phone's microphone) or their scripted
 * speech, outbound what the sandbox plays.
 */
export function trackFrame(rt: CallRuntime, track: "inbound" | "outbound", at: number): string {
  if (track === "inbound") {
    const live = audioAt(rt.mic, at, frameBytes);
    if (live) return Buffer.from(live).toString("base64");
    const said = sounding(rt.speech, at);
    return said ? speechFrame(said, "caller", at) : framePayloads.silence;
  }
  return outboundFrame(rt, at);
}

/** The stream's statusCallback, if it has one: started, stopped or error. */
function sendStreamStatus(
  reg: CallRegistry,
  call: Call,
  spec: StreamSpec,
  streamSid: string,
  event: StreamEvent,
  error: string | undefined,
): void {
  if (!spec.statusCallback) return;
  sendCallback(reg.services, {
    kind: "stream-status",
    url: spec.statusCallback,
    method: spec.statusCallbackMethod,
    params: {
      AccountSid: call.account_sid,
      CallSid: call.sid,
      StreamSid: streamSid,
      StreamName: spec.name ?? streamSid,
      StreamEvent: event,
      ...(error !== undefined ? { StreamError: error } : {}),
      Timestamp: new Date(reg.now()).toISOString(),
    },
    accountSid: call.account_sid,
    callSid: call.sid,
    orderingKey: call.parent_call_sid ?? call.sid,
    cookies: callCookies(call.sid),
  });
}

/** What every session of the streams part shares: the media budget, and the waits for agents' answers. */
export interface AgentHosting {
  readonly budget: PlaybackBudget;
  /** Real clock: the threads that send streams' frames (null: the main thread does). */
  readonly frameSenders: FrameSenders | null;
  /** Real ms the virtual clock waits for an app's answer (agentTurnTimeout). */
  agentTurnTimeoutMs(): number;
  /** The sandbox waited `ms` (real) for the answer to the call's turn `n`; null: none came. */
  agentWaited(callSid: string, n: number, ms: number | null): void;
}

/** A media stream's host on the call `rt` (`call` its record, `env` its verbs' environment). */
export function streamSessionHost(
  reg: CallRegistry,
  rt: CallRuntime,
  call: Call,
  env: VerbEnv,
  ended: (streamSid: string) => void,
  hosting: AgentHosting,
): StreamSessionHost {
  const { ctx, scheduler } = reg.services;
  return {
    scheduler,
    clockMode: () => ctx.clock.mode,
    now: reg.now,
    accountSid: call.account_sid,
    callSid: call.sid,
    authToken: ctx.store.accounts.get(call.account_sid)?.auth_token ?? "",
    callerUtterance(at) {
      const words = sounding(rt.speech, at);
      return (
        words && {
          start: words.start,
          end: words.end,
          heardEnd: heardEnd(words, "caller"),
          ...(words.backchannel ? { backchannel: words.backchannel } : {}),
        }
      );
    },
    agentTurnTimeoutMs: hosting.agentTurnTimeoutMs,
    agentWaited: (n, ms) => hosting.agentWaited(call.sid, n, ms),
    trackAudio: (track, at) => trackFrame(rt, track, at),
    played: (at, audio) => keepPlayed(rt, at, audio),
    timeline: (kind, detail) => reg.note(rt, kind, detail),
    alert: (code, message, level) => reg.alert(rt, code, message, level),
    listening: () => env.listening("Connect"),
    talking: () => env.talking(),
    statusCallback: (streamSpec, streamSid, event, error) =>
      sendStreamStatus(reg, call, streamSpec, streamSid, event, error),
    ended,
    budget: hosting.budget,
    frameSenders: hosting.frameSenders,
    ...(rt.behaviour.line ? { line: rt.behaviour.line } : {}),
  };
}

/** A ConversationRelay session's host on the call `rt` (`call` its record, `env` its verbs' environment). */
export function relaySessionHost(
  reg: CallRegistry,
  rt: CallRuntime,
  call: Call,
  env: VerbEnv,
  ended: () => void,
  hosting: AgentHosting,
): RelaySessionHost {
  const { ctx, scheduler } = reg.services;
  return {
    scheduler,
    clockMode: () => ctx.clock.mode,
    now: reg.now,
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
      callStatus: setupCallStatus(call, reg.now()),
    },
    timeline: (kind, detail) => reg.note(rt, kind, detail),
    alert: (code, message, level) => reg.alert(rt, code, message, level),
    heard: (entry) => env.heard(entry),
    callerBackchannel: () => rt.speech.at(-1)?.backchannel === true,
    cutHeard: (ms, said) => env.cutHeard(ms, said),
    tts: (text, voice, language) => env.tts(text, voice, language),
    listening: () => env.listening("Connect"),
    talking: () => env.talking(),
    agentTurnTimeoutMs: hosting.agentTurnTimeoutMs,
    agentWaited: (n, ms) => hosting.agentWaited(call.sid, n, ms),
    ended,
  };
}

/**
 * `setup`'s callStatus: Twilio's example, an inbound call connected to the relay, says RINGING: an inbound
 * call the relay picks up (answered this instant, nothing before it on the call taking time) is RINGING; any
 * other call is its status now, upper-cased (IN-PROGRESS).
 */
function setupCallStatus(call: Call, now: number): string {
  if (call.direction === "inbound" && call.answered_at === now) return "RINGING";
  return call.status.toUpperCase();
}
