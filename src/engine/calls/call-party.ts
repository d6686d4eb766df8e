// The simulated party on the far end of each leg: who answers and when, what it presses and says, when it hangs up.
import type { Call } from "../../domain/call.js";
import type { DialTarget } from "../../markup/effects.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry, PartyPart } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import type { CallEvent } from "./call-transitions.js";
import {
  defaultAnswerAfterMs,
  defaultBehaviour,
  defaultBridgeTalkMs,
  defaultConversation,
  defaultRingAfterMs,
  type PartyBehaviour,
  type PartyStep,
  parseBehaviour,
  speechLengthMs,
  testNumbers,
} from "./party-behaviour.js";
import { digitSchedule } from "./send-digits.js";

/** What a ringing callee's scripted outcome does to the call (no-answer: nothing; the ring timeout ends it). */
const outcomeEvent: Record<string, CallEvent | null> = {
  answer: "answer",
  busy: "busy",
  decline: "no-answer",
  "no-answer": null,
};

export function createParty(reg: CallRegistry): PartyPart {
  const { services, parts, note, now, timer } = reg;
  const { ctx } = services;
  const applyEvent = (sid: string, event: CallEvent) => parts.lifecycle.applyEvent(sid, event);

  const behaviourFor: PartyPart["behaviourFor"] = (number) => {
    // An injected number fault (POST /__sandbox/faults, kind number) wins over any script.
    const fault = ctx.faults?.take("number", number, now());
    if (fault) {
      const outcome = fault.outcome === "fail" ? "failed" : fault.outcome;
      return {
        behaviour: parseBehaviour({ outcome, answerAfter: outcome === "failed" ? 0 : 2000 }),
        scripted: false,
      };
    }
    const set = reg.parties.get(number);
    if (set) return { behaviour: set, scripted: set.steps.length > 0 || set.hangupAfter !== undefined };
    const test = testNumbers[number];
    if (test) return { behaviour: parseBehaviour(test), scripted: test.hangupAfter !== undefined };
    return { behaviour: defaultBehaviour, scripted: false };
  };

  const hangUp = (rt: CallRuntime) => {
    note(rt, "party.hangup");
    applyEvent(rt.sid, "hangup");
  };

  const runStep = (rt: CallRuntime, step: PartyStep) => {
    const start = now();
    if (step.press !== undefined) {
      let t = 0;
      for (const ch of step.press) {
        if (ch === "w") {
          t += 500;
          continue;
        }
        timer(rt, start + t, eventClass.input, "dtmf", () =>
          parts.program.deliver(rt, { kind: "dtmf", digit: ch }),
        );
        t += step.gap ?? 300;
      }
      note(rt, "party.press", { digits: step.press });
    } else if (step.say !== undefined) {
      speakNow(rt, step.say, step.for ?? speechLengthMs(step.say), step.confidence ?? 0.92);
    } else if (step.hangup) {
      hangUp(rt);
    }
  };

  const speakNow = (rt: CallRuntime, text: string, length: number, confidence: number) => {
    const start = now();
    rt.speech.push({ start, end: start + length, text });
    note(rt, "party.say", { text, ms: length });
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
  };

  const connect = (rt: CallRuntime) => {
    const base = now();
    for (const step of rt.behaviour.steps) {
      if (step.at !== undefined)
        timer(rt, base + step.at, eventClass.input, "party step", () => runStep(rt, step));
    }
    if (rt.behaviour.hangupAfter !== undefined) {
      timer(rt, base + rt.behaviour.hangupAfter, eventClass.control, "party hangup", () => hangUp(rt));
    }
  };

  const ringTimeout = (rt: CallRuntime, call: Call, start: number) =>
    timer(rt, start + call.timeout * 1000, eventClass.timer, "ring timeout", () => {
      note(rt, "ring.timeout");
      applyEvent(rt.sid, "no-answer");
    });

  const consultCallee = (rt: CallRuntime, call: Call) => {
    const b = rt.behaviour;
    const start = now();
    if (parts.ownNumbers.dial(call)) {
      // One of the sandbox's own numbers: its inbound call answers (or not) through its own markup.
      ringTimeout(rt, call, start);
      return;
    }
    const ringAt = start + (b.ringAfter ?? defaultRingAfterMs);
    const decideAt = start + (b.answerAfter ?? defaultAnswerAfterMs);
    if (b.outcome === "failed") {
      timer(rt, decideAt, eventClass.input, "fail", () => void applyEvent(rt.sid, "fail"));
      return;
    }
    if (ringAt <= decideAt || b.outcome === "no-answer") {
      timer(rt, ringAt, eventClass.input, "ring", () => void applyEvent(rt.sid, "ring"));
    }
    const event = outcomeEvent[b.outcome];
    if (event) timer(rt, decideAt, eventClass.input, b.outcome, () => void applyEvent(rt.sid, event));
    ringTimeout(rt, call, start);
  };

  const talk = (agent: CallRuntime, customer: CallRuntime, leaver: CallRuntime) => {
    const at = now();
    // A leg linked to one of the sandbox's own numbers has that call's markup as its party, not a simulation.
    if (parts.ownNumbers.partnerOf(agent.sid) || parts.ownNumbers.partnerOf(customer.sid)) return;
    if (!agent.scripted && !customer.scripted) {
      const agentMs = speechLengthMs(defaultConversation.agent);
      timer(agent, at + 1000, eventClass.input, "default conversation", () =>
        speakNow(agent, defaultConversation.agent, agentMs, 0.92),
      );
      timer(customer, at + 1500 + agentMs, eventClass.input, "default conversation", () =>
        speakNow(customer, defaultConversation.customer, speechLengthMs(defaultConversation.customer), 0.92),
      );
    }
    if (leaver.behaviour.hangupAfter === undefined && !leaver.behaviour.steps.some((s) => s.hangup)) {
      timer(leaver, at + defaultBridgeTalkMs, eventClass.control, "default hangup", () => hangUp(leaver));
    }
  };

  /** The tones reach the answered party (what it heard; the linked inbound call's markup as DTMF). */
  const sendDigits = (rt: CallRuntime, digits: string) => {
    const start = now();
    note(rt, "send-digits", { digits });
    const partner = parts.ownNumbers.partnerOf(rt.sid);
    for (const tone of digitSchedule(digits)) {
      timer(rt, start + tone.offset, eventClass.input, "send digit", () => {
        rt.heard.push({ at: now(), kind: "digits", text: tone.digit });
        note(rt, "heard.digits", { text: tone.digit });
        const other = partner ? reg.runtime(partner) : undefined;
        if (other) return parts.program.deliver(other, { kind: "dtmf", digit: tone.digit });
      });
    }
  };

  /** What an agent's status does to a call (SIP codes Somleng maps): busy 486, dnd 603, offline 480, away rings out. */
  const agentBehaviour = (target: DialTarget): PartyBehaviour | null => {
    switch (target.agentStatus) {
      case "busy":
        return parseBehaviour({ outcome: "busy", answerAfter: 0 });
      case "dnd":
        return parseBehaviour({ outcome: "decline", answerAfter: 0 });
      case "offline":
        return parseBehaviour({ outcome: "decline", ringAfter: 0, answerAfter: 0 });
      case "away":
        return parseBehaviour({ outcome: "no-answer" });
      default:
        return null;
    }
  };

  return { behaviourFor, runStep, speakNow, connect, consultCallee, talk, sendDigits, agentBehaviour };
}
