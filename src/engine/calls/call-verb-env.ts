// The environment a call's verbs run in: what they read of the call and the world, and the engine effects they reach.
import { isTerminalCallStatus } from "../../domain/call.js";
import type { Message } from "../../domain/message.js";
import type { VerbEnv } from "../../markup/effects.js";
import type { MarkupNode } from "../../markup/parse.js";
import { recordTtsEvent } from "../billing/tts-events.js";
import { voiceParams } from "../callbacks/voice-params.js";
import { callCookies } from "../callbacks/webhook-cookies.js";
import { sendCallback } from "../context/engine-services.js";
import { sendMessage } from "../messaging/messages.js";
import { recordingUrl } from "../recordings/recordings.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { defaultVoicemail, speechLengthMs } from "./party-behaviour.js";

export function createVerbEnv(
  reg: CallRegistry,
  startMessage: (message: Message) => void,
): (rt: CallRuntime, documentUrl: string | null) => VerbEnv {
  const { services, parts, note, now, timer } = reg;
  const { ctx } = services;

  /**
   * A Gather or Record listens, or a `<Connect>` app stopped talking: the party's next untimed step answers
   * it (an unscripted caller leaves a message). A step waiting for the agent to talk waits on.
   */
  const listening = (rt: CallRuntime, verb: string) => {
    if (verb === "Connect") {
      rt.agentTalking = false;
      note(rt, "agent.listening");
    }
    const next = rt.untimed[0];
    if (next?.agent === "talking") return;
    rt.untimed.shift();
    if (next) {
      const pending = { step: next };
      // Only a Connect agent can start talking again before the step is due; then the step waits on.
      if (verb === "Connect") rt.pendingListen = pending;
      timer(rt, now() + (next.after ?? 1000), eventClass.input, "party step", () => {
        if (verb === "Connect" && rt.pendingListen !== pending) return;
        rt.pendingListen = null;
        return parts.party.runStep(rt, next);
      });
    } else if (!rt.scripted && verb === "Record") {
      // An unscripted caller leaves a short message, so recordings and transcripts have content.
      timer(rt, now() + 1000, eventClass.input, "default voicemail", () =>
        parts.party.speakNow(rt, defaultVoicemail, speechLengthMs(defaultVoicemail), 0.92),
      );
    }
  };

  /** A `<Connect>` app starts playing to the caller: a step waiting for that is scheduled, one waiting for quiet goes back. */
  const talking = (rt: CallRuntime) => {
    rt.agentTalking = true;
    note(rt, "agent.talking");
    if (rt.pendingListen) {
      rt.untimed.unshift(rt.pendingListen.step);
      rt.pendingListen = null;
    }
    const next = rt.untimed[0];
    if (next?.agent !== "talking") return;
    rt.untimed.shift();
    timer(rt, now() + (next.after ?? 1000), eventClass.input, "party step", () =>
      parts.party.runStep(rt, next),
    );
  };

  /** A verb starts: party steps waiting for its nth start are armed. */
  const verbStarted = (rt: CallRuntime, node: MarkupNode) => {
    const count = (rt.verbCounts.get(node.name) ?? 0) + 1;
    rt.verbCounts.set(node.name, count);
    for (const s of rt.behaviour.steps) {
      if (s.on?.verb === node.name && s.on.nth === count) {
        timer(rt, now() + (s.after ?? 0), eventClass.input, "party step", () => parts.party.runStep(rt, s));
      }
    }
  };

  const tts = (rt: CallRuntime, text: string, voice: string) => {
    const call = reg.getCall(rt.sid);
    const account = ctx.store.accounts.get(call.account_sid);
    recordTtsEvent(ctx, {
      accountSid: call.account_sid,
      callSid: call.sid,
      voice: voice || account?.default_tts_voice || "Basic.Kal",
      characters: [...text].length,
      ratedNumber: call.direction === "inbound" ? call.to : call.from,
    });
  };

  return (rt, documentUrl) => ({
    callSid: rt.sid,
    call: () => reg.getCall(rt.sid),
    now,
    documentUrl,
    resolve: (url) => {
      try {
        return new URL(url, documentUrl ?? reg.getCall(rt.sid).url ?? undefined).toString();
      } catch {
        return url;
      }
    },
    actionParams: (extra) => ({ ...voiceParams(ctx.store, reg.getCall(rt.sid)), ...extra }),
    timeline: (kind, detail = {}) => note(rt, kind, detail),
    heard: (entry) => {
      rt.heard.push({ at: now(), ...entry });
      note(rt, `heard.${entry.kind}`, { ...entry });
    },
    cutHeard: (ms, said) => {
      const last = rt.heard.at(-1);
      if (last && !last.cut) last.cut = { ms: Math.max(0, ms), said };
    },
    tts: (text, voice, _language) => tts(rt, text, voice),
    verbStarted: (node) => verbStarted(rt, node),
    listening: (verb) => listening(rt, verb),
    talking: () => talking(rt),
    answer: () => {
      const call = reg.getCall(rt.sid);
      if (call.direction === "inbound" && call.answered_at === null && !isTerminalCallStatus(call.status)) {
        parts.lifecycle.applyEvent(rt.sid, "answer");
      }
    },
    alert: (code, message, level = "error") => reg.alert(rt, code, message, level),
    startRecording: (start) => parts.recordings.start(rt, start),
    finishRecording: (handle, endAt) => {
      const recording = parts.recordings.end(rt, handle.sid, endAt);
      note(rt, "recording.end", { sid: recording.sid, duration: recording.duration });
      return {
        sid: recording.sid,
        duration: recording.duration ?? 0,
        url: recordingUrl(services, recording),
      };
    },
    discardRecording: (handle) => parts.recordings.discard(rt, handle),
    partialResult: (url, method, params) => {
      const call = reg.getCall(rt.sid);
      sendCallback(services, {
        kind: "partial-result",
        url,
        method,
        params: { ...voiceParams(ctx.store, call), ...params },
        accountSid: call.account_sid,
        callSid: call.sid,
        orderingKey: call.parent_call_sid ?? call.sid,
        cookies: callCookies(call.sid),
      });
    },
    sendSms: (input) => {
      const message = sendMessage(ctx, {
        accountSid: reg.getCall(rt.sid).account_sid,
        ...input,
        direction: "outbound-call",
      });
      startMessage(message);
      return message.sid;
    },
    openStream: (spec) => parts.streams.open(rt, spec),
    openRelay: (spec) => parts.streams.openRelay(rt, spec),
    stopStreams: (name) => {
      if (name !== null) return parts.streams.stop(rt.sid, name) !== undefined;
      parts.streams.stopAll(rt.sid);
      return true;
    },
    startLegs: (targets, legOptions) => targets.map((target) => parts.legs.startLeg(rt, target, legOptions)),
    endLeg: (sid) => {
      const child = ctx.store.calls.get(sid);
      if (!child || isTerminalCallStatus(child.status)) return;
      parts.lifecycle.applyEvent(sid, child.status === "in-progress" ? "hangup" : "cancel");
    },
    bridge: (childSid) => parts.legs.bridge(rt, childSid),
    conference: parts.conferences.hostFor(rt.sid),
    queue: parts.queues.hostFor(rt.sid),
    accountExtension: (extension) => parts.legs.agentTarget(reg.getCall(rt.sid).account_sid, extension),
    ringGroup: (name) => parts.legs.ringGroup(reg.getCall(rt.sid).account_sid, name),
  });
}
