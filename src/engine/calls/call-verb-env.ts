// The environment a call's verbs run in: what they read of the call and the world, and the engine effects they reach.
import type { Message } from "../../domain/message.js";
import type { VerbEnv } from "../../markup/effects.js";
import { voiceParams } from "../callbacks/voice-params.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import {
  answer,
  endLeg,
  finishVerbRecording,
  sendPartialResult,
  sendSmsFromCall,
  stopStreams,
  tts,
} from "./verb-env-effects.js";
import { listening, talking, verbStarted } from "./verb-party-cues.js";

export function createVerbEnv(
  reg: CallRegistry,
  startMessage: (message: Message) => void,
): (rt: CallRuntime, documentUrl: string | null) => VerbEnv {
  return (rt, documentUrl) => verbEnv(reg, startMessage, rt, documentUrl);
}

/** The environment of the verbs of one document (`documentUrl`: where it was fetched, for relative URLs). */
function verbEnv(
  reg: CallRegistry,
  startMessage: (message: Message) => void,
  rt: CallRuntime,
  documentUrl: string | null,
): VerbEnv {
  const { parts, note, now } = reg;
  return {
    callSid: rt.sid,
    call: () => reg.getCall(rt.sid),
    now,
    documentUrl,
    resolve: (url) => resolveUrl(reg, rt, documentUrl, url),
    actionParams: (extra) => ({ ...voiceParams(reg.services.ctx.store, reg.getCall(rt.sid)), ...extra }),
    timeline: (kind, detail = {}) => note(rt, kind, detail),
    heard: (entry) => {
      rt.heard.push({ at: now(), ...entry });
      note(rt, `heard.${entry.kind}`, { ...entry });
    },
    cutHeard: (ms, said) => {
      const last = rt.heard.at(-1);
      if (last && !last.cut) last.cut = { ms: Math.max(0, ms), said };
    },
    tts: (text, voice, _language) => tts(reg, rt, text, voice),
    verbStarted: (node) => verbStarted(reg, rt, node),
    listening: (verb) => listening(reg, rt, verb),
    talking: () => talking(reg, rt),
    answer: () => answer(reg, rt),
    alert: (code, message, level = "error") => reg.alert(rt, code, message, level),
    startRecording: (start) => parts.recordings.start(rt, start),
    finishRecording: (handle, endAt) => finishVerbRecording(reg, rt, handle, endAt),
    discardRecording: (handle) => parts.recordings.discard(rt, handle),
    partialResult: (url, method, params) => sendPartialResult(reg, rt, url, method, params),
    sendSms: (input) => sendSmsFromCall(reg, startMessage, rt, input),
    openStream: (spec) => parts.streams.open(rt, spec),
    openRelay: (spec) => parts.streams.openRelay(rt, spec),
    stopStreams: (name) => stopStreams(reg, rt, name),
    startLegs: (targets, legOptions) => targets.map((target) => parts.legs.startLeg(rt, target, legOptions)),
    endLeg: (sid) => endLeg(reg, sid),
    bridge: (childSid) => parts.legs.bridge(rt, childSid),
    conference: parts.conferences.hostFor(rt.sid),
    queue: parts.queues.hostFor(rt.sid),
    accountExtension: (extension) => parts.legs.agentTarget(reg.getCall(rt.sid).account_sid, extension),
    ringGroup: (name) => parts.legs.ringGroup(reg.getCall(rt.sid).account_sid, name),
  };
}

/** A URL a verb names, against the document's own URL (or the call's); left as it is when it does not parse. */
function resolveUrl(reg: CallRegistry, rt: CallRuntime, documentUrl: string | null, url: string): string {
  try {
    return new URL(url, documentUrl ?? reg.getCall(rt.sid).url ?? undefined).toString();
  } catch {
    return url;
  }
}
