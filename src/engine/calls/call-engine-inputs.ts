// What the engine's face lets its users do to parties: script a number, make a live call's party press or speak now.
import { errors } from "../../domain/errors.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import {
  type PartyBehaviour,
  type PartyBehaviourInput,
  parseBehaviour,
  speechLengthMs,
} from "./party-behaviour.js";

/** Sets how a number behaves when the sandbox calls it (or calls from it, for `ring`). */
export function setParty(reg: CallRegistry, number: string, behaviour: PartyBehaviourInput): PartyBehaviour {
  const parsed = parseBehaviour(behaviour);
  reg.parties.set(number, parsed);
  return parsed;
}

/** The simulated party on a live call presses `digits`, in an event of its own at this instant. */
export function pressNow(reg: CallRegistry, callSid: string, digits: string): void {
  const rt = liveRuntime(reg, callSid);
  reg.services.scheduler.after(0, eventClass.input, `press ${callSid}`, () =>
    reg.parts.party.runStep(rt, parseBehaviour({ steps: [{ press: digits, at: 0 }] }).steps[0]!),
  );
}

/** The simulated party on a live call says `text`, in an event of its own at this instant. */
export function speakNow(reg: CallRegistry, callSid: string, text: string, durationMs?: number): void {
  const rt = liveRuntime(reg, callSid);
  reg.services.scheduler.after(0, eventClass.input, `speak ${callSid}`, () =>
    reg.parts.party.speakNow(rt, text, durationMs ?? speechLengthMs(text), 0.92),
  );
}

/** A call's runtime while the call runs; a finished call's (kept or dropped) is no longer live. */
function liveRuntime(reg: CallRegistry, callSid: string): CallRuntime {
  const rt = reg.runtime(callSid);
  if (!rt || rt.finishing) throw errors.notPending("call", callSid);
  return rt;
}
