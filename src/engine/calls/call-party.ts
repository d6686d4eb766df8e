// The simulated party on the far end of each leg: who answers and when; what it does once connected is party-actions.ts.
import type { Call } from "../../domain/call.js";
import type { DialTarget } from "../../markup/effects.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry, PartyPart } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import type { CallEvent } from "./call-transitions.js";
import { ringHeldPhone } from "./held-phones.js";
import { connect, runStep, sendDigits, speakNow, talk } from "./party-actions.js";
import {
  defaultAnswerAfterMs,
  defaultBehaviour,
  defaultRingAfterMs,
  outcomeOf,
  type PartyBehaviour,
  parseBehaviour,
  testNumbers,
} from "./party-behaviour.js";

/** What a ringing callee's scripted outcome does to the call (no-answer: nothing; the ring timeout ends it). */
const outcomeEvent: Record<string, CallEvent | null> = {
  answer: "answer",
  busy: "busy",
  decline: "no-answer",
  "no-answer": null,
};

export function createParty(reg: CallRegistry): PartyPart {
  return {
    behaviourFor: (number) => behaviourFor(reg, number),
    runStep: (rt, step) => runStep(reg, rt, step),
    speakNow: (rt, text, length, confidence) => speakNow(reg, rt, text, length, confidence),
    connect: (rt) => connect(reg, rt),
    consultCallee: (rt, call) => consultCallee(reg, rt, call),
    talk: (agent, customer, leaver) => talk(reg, agent, customer, leaver),
    sendDigits: (rt, digits) => sendDigits(reg, rt, digits),
    agentBehaviour,
  };
}

/** Who answers `number`: an injected fault, a script set for it, a test number, or the default. */
function behaviourFor(reg: CallRegistry, number: string): ReturnType<PartyPart["behaviourFor"]> {
  // An injected number fault (POST /__sandbox/faults, kind number) wins over any script.
  const fault = reg.services.ctx.faults?.take("number", number, reg.now());
  if (fault) {
    const outcome = fault.outcome === "fail" ? "failed" : fault.outcome;
    return {
      behaviour: parseBehaviour({ outcome, answerAfter: outcome === "failed" ? 0 : 2000 }),
      scripted: false,
    };
  }
  const set = reg.parties.get(number);
  if (set)
    return {
      behaviour: set,
      scripted: set.steps.length > 0 || set.hangupAfter !== undefined || set.respond !== undefined,
    };
  const test = testNumbers[number];
  if (test) return { behaviour: parseBehaviour(test), scripted: test.hangupAfter !== undefined };
  return { behaviour: defaultBehaviour, scripted: false };
}

/** Arms the ringing of an outbound leg: ring, answer (or not), ring timeout. */
function consultCallee(reg: CallRegistry, rt: CallRuntime, call: Call): void {
  const { parts, timer } = reg;
  const applyEvent = (event: CallEvent) => void parts.lifecycle.applyEvent(rt.sid, event);
  const b = rt.behaviour;
  const start = reg.now();
  if (parts.ownNumbers.dial(call)) {
    // One of the sandbox's own numbers: its inbound call answers (or not) through its own markup.
    ringTimeout(reg, rt, call, start);
    return;
  }
  if (ringHeldPhone(reg, rt, call)) {
    // A number or client a browser phone holds: it rings there, and the page answers or declines.
    ringTimeout(reg, rt, call, start);
    return;
  }
  const ringAt = start + (b.ringAfter ?? defaultRingAfterMs);
  const decideAt = start + (b.answerAfter ?? defaultAnswerAfterMs);
  const outcome = outcomeOf(b);
  // The party's answer to the INVITE, as it gives it: its scripted SIP response, or the one its outcome stands for.
  const respond = (event: CallEvent) => {
    rt.sipResponseCode = b.sipResponseCode ?? (outcome === "decline" ? 603 : null);
    applyEvent(event);
  };
  if (outcome === "failed") {
    timer(rt, decideAt, eventClass.input, "fail", () => respond("fail"));
    return;
  }
  if (ringAt <= decideAt || outcome === "no-answer") {
    timer(rt, ringAt, eventClass.input, "ring", () => applyEvent("ring"));
  }
  const event = outcomeEvent[outcome];
  if (event) timer(rt, decideAt, eventClass.input, outcome, () => respond(event));
  ringTimeout(reg, rt, call, start);
}

function ringTimeout(reg: CallRegistry, rt: CallRuntime, call: Call, start: number): void {
  reg.timer(rt, start + call.timeout * 1000, eventClass.timer, "ring timeout", () => {
    reg.note(rt, "ring.timeout");
    reg.parts.lifecycle.applyEvent(rt.sid, "no-answer");
  });
}

/** What an agent's status does to a call (SIP codes Somleng maps): busy 486, dnd 603, offline 480, away rings out. */
function agentBehaviour(target: DialTarget): PartyBehaviour | null {
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
}
