// What the simulated party does on a live call: presses, speech, hang-ups, the default talk on a bridge, tones it hears.
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import {
  defaultBridgeTalkMs,
  defaultConversation,
  type PartyStep,
  speechLengthMs,
} from "./party-behaviour.js";
import { digitSchedule } from "./send-digits.js";

export function hangUp(reg: CallRegistry, rt: CallRuntime): void {
  reg.note(rt, "party.hangup");
  reg.parts.lifecycle.applyEvent(rt.sid, "hangup");
}

/** One step of the party's script, now: digits pressed one by one, words said, or a hang-up. */
export function runStep(reg: CallRegistry, rt: CallRuntime, step: PartyStep): void {
  const start = reg.now();
  if (step.press !== undefined) {
    let t = 0;
    for (const ch of step.press) {
      if (ch === "w") {
        t += 500;
        continue;
      }
      reg.timer(rt, start + t, eventClass.input, "dtmf", () =>
        reg.parts.program.deliver(rt, { kind: "dtmf", digit: ch }),
      );
      t += step.gap ?? 300;
    }
    reg.note(rt, "party.press", { digits: step.press });
  } else if (step.say !== undefined) {
    speakNow(
      reg,
      rt,
      step.say,
      step.for ?? speechLengthMs(step.say),
      step.confidence ?? 0.92,
      step.backchannel,
    );
  } else if (step.hangup) {
    hangUp(reg, rt);
  }
}

/** The party starts saying `text` now, for `length` ms: speech starts, partial results, then the whole. */
export function speakNow(
  reg: CallRegistry,
  rt: CallRuntime,
  text: string,
  length: number,
  confidence: number,
  backchannel?: true,
): void {
  const { parts, timer } = reg;
  const start = reg.now();
  rt.speech.push({ start, end: start + length, text, ...(backchannel ? { backchannel } : {}) });
  reg.note(rt, "party.say", { text, ms: length, ...(backchannel ? { backchannel } : {}) });
  parts.conferences.spoke(rt.sid, start + length);
  void parts.program.deliver(rt, { kind: "speech-start" }, true);
  // Words are recognised one by one while the caller speaks (what partialResultCallback reports).
  const words = text.trim().split(/\s+/).filter(Boolean);
  for (let i = 1; i < words.length; i++) {
    const heard = words.slice(0, i).join(" ");
    timer(rt, start + Math.floor((length * i) / words.length), eventClass.input, "speech partial", () =>
      parts.program.deliver(rt, { kind: "speech-partial", text: heard }, true),
    );
  }
  timer(rt, start + length, eventClass.input, "speech", () =>
    parts.program.deliver(rt, { kind: "speech", text, confidence, startedAt: start }),
  );
}

/** Arms the party's steps timed from connect (answer of a callee, start of an inbound caller). */
export function connect(reg: CallRegistry, rt: CallRuntime): void {
  const base = reg.now();
  for (const step of rt.behaviour.steps) {
    if (step.at !== undefined)
      reg.timer(rt, base + step.at, eventClass.input, "party step", () => runStep(reg, rt, step));
  }
  if (rt.behaviour.hangupAfter !== undefined) {
    reg.timer(rt, base + rt.behaviour.hangupAfter, eventClass.control, "party hangup", () => hangUp(reg, rt));
  }
}

/** Unscripted parties on a bridge talk; `leaver` hangs up after a while. */
export function talk(
  reg: CallRegistry,
  agent: CallRuntime,
  customer: CallRuntime,
  leaver: CallRuntime,
): void {
  const { parts, timer } = reg;
  const at = reg.now();
  // A leg linked to one of the sandbox's own numbers has that call's markup as its party, not a simulation.
  if (parts.ownNumbers.partnerOf(agent.sid) || parts.ownNumbers.partnerOf(customer.sid)) return;
  if (!agent.scripted && !customer.scripted) {
    const agentMs = speechLengthMs(defaultConversation.agent);
    timer(agent, at + 1000, eventClass.input, "default conversation", () =>
      speakNow(reg, agent, defaultConversation.agent, agentMs, 0.92),
    );
    timer(customer, at + 1500 + agentMs, eventClass.input, "default conversation", () =>
      speakNow(
        reg,
        customer,
        defaultConversation.customer,
        speechLengthMs(defaultConversation.customer),
        0.92,
      ),
    );
  }
  if (leaver.behaviour.hangupAfter === undefined && !leaver.behaviour.steps.some((s) => s.hangup)) {
    timer(leaver, at + defaultBridgeTalkMs, eventClass.control, "default hangup", () => hangUp(reg, leaver));
  }
}

/** The tones reach the answered party (what it heard; the linked inbound call's markup as DTMF). */
export function sendDigits(reg: CallRegistry, rt: CallRuntime, digits: string): void {
  const start = reg.now();
  reg.note(rt, "send-digits", { digits });
  const partner = reg.parts.ownNumbers.partnerOf(rt.sid);
  for (const tone of digitSchedule(digits)) {
    reg.timer(rt, start + tone.offset, eventClass.input, "send digit", () => {
      rt.heard.push({ at: reg.now(), kind: "digits", text: tone.digit });
      reg.note(rt, "heard.digits", { text: tone.digit });
      const other = partner ? reg.runtime(partner) : undefined;
      if (other) return reg.parts.program.deliver(other, { kind: "dtmf", digit: tone.digit });
    });
  }
}
