// Program stepping: a call's markup runs as a generator; the loop resumes it with inputs, timeouts and fetched documents.
import { CallEnded, type Navigation, type Wake } from "../../markup/effects.js";
import { type ProgramHost, runCallProgram } from "../../markup/interpreter.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry, ProgramPart } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { step } from "./program-step.js";

export function createProgram(reg: CallRegistry): ProgramPart {
  return {
    start: (rt, from) => startProgram(reg, rt, from),
    deliver: (rt, wake, quiet) => deliver(reg, rt, wake, quiet),
    interrupt: (rt, error) => interrupt(reg, rt, error),
    end: (rt) => endProgram(reg, rt),
  };
}

/** Resumes a waiting program with an input, if it listens for that kind; otherwise the input is ignored. */
function deliver(reg: CallRegistry, rt: CallRuntime, wake: Wake, quiet = false): void | Promise<void> {
  if (rt.waiting?.wake.includes(wake.kind as never)) {
    reg.services.scheduler.cancel(rt.waiting.timer);
    rt.waiting = null;
    if (wake.kind === "dtmf") reg.note(rt, "input.dtmf", { digit: wake.digit });
    return step(reg, rt, { value: wake });
  }
  if (wake.kind === "signal") {
    rt.pendingSignals.push(wake);
    return;
  }
  if (!quiet && wake.kind !== "speech-start") reg.note(rt, "input.ignored", { ...wake });
}

/** Starts the call's markup (its Twiml or Url, or `from`), unless a program already runs. */
function startProgram(reg: CallRegistry, rt: CallRuntime, from?: Navigation): void {
  if (rt.program) return;
  const call = reg.getCall(rt.sid);
  const first: Navigation =
    from ??
    (call.twiml
      ? { kind: "twiml", twiml: call.twiml }
      : { kind: "url", url: call.url ?? "", method: call.method });
  const host: ProgramHost = {
    envFor: (url) => reg.parts.envFor(rt, url),
    fallback: () => (call.fallback_url ? { url: call.fallback_url, method: call.fallback_method } : null),
  };
  rt.program = runCallProgram(host, first);
  reg.services.scheduler.after(0, eventClass.continuation, `start ${rt.sid}`, () => step(reg, rt, {}));
}

/** Drops the wait the program is in; false when it is not waiting. */
function stopWaiting(reg: CallRegistry, rt: CallRuntime): boolean {
  if (!rt.waiting) return false;
  reg.services.scheduler.cancel(rt.waiting.timer);
  rt.waiting = null;
  return true;
}

/** Stops the running verb with `error` (a redirect or the end of the call) and lets the program go on. */
async function interrupt(reg: CallRegistry, rt: CallRuntime, error: Error): Promise<void> {
  if (!rt.program) return;
  // A request is out (real clock): the redirect replaces its answer.
  if (rt.fetching !== null) rt.pendingInterrupt = error;
  else if (stopWaiting(reg, rt)) await step(reg, rt, { error });
}

/** The running verb cleans up at the end of the call; the program is dropped. */
async function endProgram(reg: CallRegistry, rt: CallRuntime): Promise<void> {
  if (!rt.program) return;
  // A request is out (real clock): when it answers, the program hears that the call is over.
  if (rt.fetching !== null) return;
  stopWaiting(reg, rt);
  await step(reg, rt, { error: new CallEnded("hangup") });
  if (rt.program) {
    (rt.program as Generator).return(undefined);
    rt.program = null;
  }
}
