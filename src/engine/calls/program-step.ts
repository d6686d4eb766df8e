// Stepping a call's program: run the markup generator until it waits (input, timer, signal) or ends; fetch its documents.
import { isTerminalCallStatus } from "../../domain/call.js";
import { CallEnded, type Effect, type Outcome } from "../../markup/effects.js";
import type { OutboundResult } from "../../webhooks/contract.js";
import { callCookies } from "../callbacks/webhook-cookies.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { finishProgram } from "./program-outcome.js";

type FetchEffect = Extract<Effect, { type: "fetch" }>;

/** The call has ended (a verb cleaning up may not wait any more). */
export function isOver(reg: CallRegistry, rt: CallRuntime): boolean {
  const status = reg.getCall(rt.sid).status;
  return status !== "in-progress" && isTerminalCallStatus(status);
}

/** Runs the program until it waits (for input, a timer or a signal) or ends. */
export async function step(
  reg: CallRegistry,
  rt: CallRuntime,
  input: { value?: unknown; error?: unknown },
): Promise<void> {
  const { ctx, scheduler } = reg.services;
  const program = rt.program;
  if (!program) return;
  let next = input;
  for (;;) {
    let result: IteratorResult<unknown, unknown>;
    try {
      result = next.error !== undefined ? program.throw(next.error) : program.next(next.value);
    } catch (error) {
      rt.program = null;
      if (!(error instanceof CallEnded)) {
        reg.alert(
          rt,
          12500,
          `internal error running markup: ${error instanceof Error ? error.message : String(error)}`,
        );
        reg.parts.lifecycle.applyEvent(rt.sid, "hangup");
      }
      return;
    }
    if (result.done) {
      rt.program = null;
      finishProgram(reg, rt, result.value as Outcome);
      return;
    }
    const effect = result.value as Effect;
    if (effect.type === "fetch") {
      // The virtual clock stands still for the answer, so every run has one order (see docs/limits.md).
      if (ctx.clock.mode === "virtual") {
        next = { value: await fetchMarkup(reg, rt, effect) };
        continue;
      }
      resumeOnAnswer(reg, rt, effect);
      return;
    }
    if (rt.finishing && isOver(reg, rt)) {
      // The call is over: a verb cleaning up may not wait any more.
      next = { error: new CallEnded("call over") };
      continue;
    }
    if (effect.wake.includes("signal") && rt.pendingSignals.length > 0) {
      next = { value: rt.pendingSignals.shift() };
      continue;
    }
    const timerHandle =
      effect.ms === null
        ? null
        : scheduler.after(effect.ms, eventClass.timer, `wait ${rt.sid}`, () => {
            if (!rt.waiting) return;
            rt.waiting = null;
            return step(reg, rt, { value: { kind: "timeout" } });
          });
    rt.waiting = { wake: effect.wake, timer: timerHandle };
    return;
  }
}

/**
 * Real clock: the request goes out and the loop goes on with other events; the program resumes in a
 * new event when the answer (or the delivery time-out) comes back. A slow customer URL holds only its call.
 */
function resumeOnAnswer(reg: CallRegistry, rt: CallRuntime, effect: FetchEffect): void {
  const token = reg.nextFetchToken();
  rt.fetching = token;
  const resume = (result: OutboundResult) =>
    reg.services.scheduler.after(0, eventClass.continuation, `markup ${rt.sid}`, () => {
      if (rt.fetching !== token) return;
      rt.fetching = null;
      // What happened while it was out wins over the answer: a redirect, or the end of the call.
      const interrupted = rt.pendingInterrupt;
      rt.pendingInterrupt = null;
      if (interrupted) return step(reg, rt, { error: interrupted });
      if (rt.finishing && isOver(reg, rt)) return step(reg, rt, { error: new CallEnded("call over") });
      return step(reg, rt, { value: result });
    });
  fetchMarkup(reg, rt, effect).then(resume, (error: unknown) =>
    resume({ ok: false, error: error instanceof Error ? error.message : String(error), url: effect.url }),
  );
}

/** Asks the customer's URL for the next document, as the call's markup request. */
async function fetchMarkup(reg: CallRegistry, rt: CallRuntime, effect: FetchEffect): Promise<OutboundResult> {
  const { services, note } = reg;
  const { ctx } = services;
  const call = reg.getCall(rt.sid);
  const account = ctx.store.accounts.get(call.account_sid);
  if (effect.url === "") return { ok: false, error: "no URL is configured", url: "" };
  const webhooks = services.webhooks();
  // Callbacks queued so far go out first, so the delivery log has one order run after run (virtual clock).
  if (ctx.clock.mode === "virtual") await webhooks.idle();
  note(rt, "markup.request", { url: effect.url, method: effect.method });
  const result = await webhooks.request({
    kind: "voice-markup",
    url: effect.url,
    method: effect.method,
    params: effect.params,
    accountSid: call.account_sid,
    authToken: account?.auth_token ?? "",
    callSid: call.sid,
    orderingKey: call.parent_call_sid ?? call.sid,
    cookies: callCookies(call.sid),
  });
  note(rt, "markup.response", result.ok ? { status: result.status } : { error: result.error });
  return result;
}
