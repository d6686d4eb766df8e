// Turns a scenario's caller steps for one inbound call into the engine's party script, plus hang-ups to watch for.
import { type PartyBehaviourInput, speechLengthMs } from "../engine/calls/party-behaviour.js";
import type { Step } from "./schema/steps.js";
import type { Scenario } from "./schema.js";

type EngineStep = NonNullable<PartyBehaviourInput["steps"]>[number];

/** A step as it shows in the call's timeline, to find when it happened. */
export interface PartyMark {
  kind: "party.say" | "party.press" | "party.hangup";
  text?: string;
  digits?: string;
  /** How long it lasts from its timeline entry: speech length, or the time to the last key. */
  lengthMs: number;
}

/** A hang-up that follows the caller's previous step: the runner waits for that step, then hangs up. */
export interface HangupWatch {
  stepIndex: number;
  after: PartyMark;
  delayMs: number;
}

export interface CallerScript {
  behaviour: PartyBehaviourInput;
  watches: HangupWatch[];
  /** Each caller step of this call by step index, as it will show in the timeline. */
  marks: Map<number, PartyMark>;
}

/** Default time between a caller's last word or key and a hang-up that follows it. */
export const hangupPauseMs = 1000;

function pressLengthMs(digits: string, gap: number): number {
  let t = 0;
  let last = 0;
  for (const ch of digits) {
    if (ch === "w") {
      t += 500;
      continue;
    }
    last = t;
    t += gap;
  }
  return last;
}

export function markOf(step: Step): PartyMark | null {
  if (step.speak)
    return {
      kind: "party.say",
      text: step.speak.text,
      lengthMs: step.speak.for ?? speechLengthMs(step.speak.text),
    };
  if (step.press)
    return {
      kind: "party.press",
      digits: step.press.digits,
      lengthMs: pressLengthMs(step.press.digits, step.press.gap ?? 300),
    };
  // Silence is a press of one half-second wait: it takes a listening turn and sends nothing.
  if (step.silence) return { kind: "party.press", digits: "w", lengthMs: 0 };
  if (step.hangup) return { kind: "party.hangup", lengthMs: 0 };
  return null;
}

/**
 * The caller's script, timed the engine's way: `at` from the call's start, `on` a verb, or (no timing) the
 * next Gather or Record that listens. A scenario's caller does only what its steps say, so an otherwise
 * empty script still counts as scripted (a far hang-up at the scenario's time limit).
 */
export function compileCaller(
  scenario: Scenario,
  callId: string,
  startMs: number,
  limitMs: number,
): CallerScript {
  const steps: EngineStep[] = [];
  const watches: HangupWatch[] = [];
  const marks = new Map<number, PartyMark>();
  let previous: PartyMark | null = null;
  scenario.steps.forEach((step, index) => {
    const target = step.speak ?? step.press ?? step.silence ?? step.hangup;
    if (!target || target.call !== callId) return;
    const mark = markOf(step)!;
    marks.set(index, mark);
    const timing: EngineStep = {};
    if (step.at !== undefined) timing.at = step.at - startMs;
    else if (step.on && "agent" in step.on) {
      timing.agent = step.on.agent;
      if (step.after !== undefined) timing.after = step.after;
    } else if (step.on) {
      timing.on = step.on;
      if (step.after !== undefined) timing.after = step.after;
    } else if (step.after !== undefined) timing.after = step.after;

    if (step.hangup && step.at === undefined && step.on === undefined && previous) {
      watches.push({ stepIndex: index, after: previous, delayMs: step.after ?? hangupPauseMs });
    } else if (step.speak) {
      steps.push({
        ...timing,
        say: step.speak.text,
        ...(step.speak.for !== undefined ? { for: step.speak.for } : {}),
        ...(step.speak.confidence !== undefined ? { confidence: step.speak.confidence } : {}),
        ...(step.speak.backchannel ? { backchannel: true as const } : {}),
      });
    } else if (step.press) {
      steps.push({
        ...timing,
        press: step.press.digits,
        ...(step.press.gap !== undefined ? { gap: step.press.gap } : {}),
      });
    } else if (step.silence) {
      steps.push({ ...timing, press: "w" });
    } else {
      steps.push({ ...timing, hangup: true });
    }
    previous = mark;
  });
  const line = scenario.steps.find((step) => step.call?.id === callId)?.call?.line;
  const behaviour = { steps, hangupAfter: Math.max(0, limitMs - startMs), ...(line ? { line } : {}) };
  return { behaviour, watches, marks };
}
