// Program stepping: a call's markup runs as a generator; the loop resumes it with inputs, timeouts and fetched documents.
import { isTerminalCallStatus } from "../../domain/call.js";
import { CallEnded, type Effect, type Navigation, type Outcome, type Wake } from "../../markup/effects.js";
import { type ProgramHost, runCallProgram } from "../../markup/interpreter.js";
import type { OutboundResult } from "../../webhooks/contract.js";
import { callCookies } from "../callbacks/webhook-cookies.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry, ProgramPart } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";

export function createProgram(reg: CallRegistry): ProgramPart {
  const { services, parts, note } = reg;
  const { ctx, scheduler } = services;

  const isOver = (rt: CallRuntime) => {
    const status = reg.getCall(rt.sid).status;
    return status !== "in-progress" && isTerminalCallStatus(status);
  };

  function deliver(rt: CallRuntime, wake: Wake, quiet = false): void | Promise<void> {
    if (rt.waiting?.wake.includes(wake.kind as never)) {
      scheduler.cancel(rt.waiting.timer);
      rt.waiting = null;
      if (wake.kind === "dtmf") note(rt, "input.dtmf", { digit: wake.digit });
      return step(rt, { value: wake });
    }
    if (wake.kind === "signal") {
      rt.pendingSignals.push(wake);
      return;
    }
    if (!quiet && wake.kind !== "speech-start") note(rt, "input.ignored", { ...wake });
  }

  /** Runs the program until it waits (for input, a timer or a signal) or ends. */
  async function step(rt: CallRuntime, input: { value?: unknown; error?: unknown }): Promise<void> {
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
          parts.lifecycle.applyEvent(rt.sid, "hangup");
        }
        return;
      }
      if (result.done) {
        rt.program = null;
        finish(rt, result.value as Outcome);
        return;
      }
      const effect = result.value as Effect;
      if (effect.type === "fetch") {
        // The virtual clock stands still for the answer, so every run has one order (see docs/limits.md).
        if (ctx.clock.mode === "virtual") {
          next = { value: await fetchMarkup(rt, effect) };
          continue;
        }
        resumeOnAnswer(rt, effect);
        return;
      }
      if (rt.finishing && isOver(rt)) {
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
              return step(rt, { value: { kind: "timeout" } });
            });
      rt.waiting = { wake: effect.wake, timer: timerHandle };
      return;
    }
  }

  let fetches = 0;
  /**
   * Real clock: the request goes out and the loop goes on with other events; the program resumes in a
   * new event when the answer (or the delivery time-out) comes back. A slow customer URL holds only its call.
   */
  function resumeOnAnswer(rt: CallRuntime, effect: Extract<Effect, { type: "fetch" }>) {
    const token = ++fetches;
    rt.fetching = token;
    const resume = (result: OutboundResult) =>
      scheduler.after(0, eventClass.continuation, `markup ${rt.sid}`, () => {
        if (rt.fetching !== token) return;
        rt.fetching = null;
        // What happened while it was out wins over the answer: a redirect, or the end of the call.
        const interrupted = rt.pendingInterrupt;
        rt.pendingInterrupt = null;
        if (interrupted) return step(rt, { error: interrupted });
        if (rt.finishing && isOver(rt)) return step(rt, { error: new CallEnded("call over") });
        return step(rt, { value: result });
      });
    fetchMarkup(rt, effect).then(resume, (error: unknown) =>
      resume({ ok: false, error: error instanceof Error ? error.message : String(error), url: effect.url }),
    );
  }

  async function fetchMarkup(
    rt: CallRuntime,
    effect: Extract<Effect, { type: "fetch" }>,
  ): Promise<OutboundResult> {
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

  /** The program returned: the call ends as its outcome says (a whisper's end bridges instead). */
  function finish(rt: CallRuntime, outcome: Outcome) {
    const applyEvent = parts.lifecycle.applyEvent;
    if (rt.whisper) {
      rt.whisper = null;
      // Twilio bridges when the whisper document ends; a <Hangup> (or a failed document) turns the call away.
      if (outcome.type === "hangup" && outcome.endOfDocument) {
        note(rt, "whisper.end");
        parts.lifecycle.signalParent(reg.getCall(rt.sid));
        return;
      }
      note(rt, "whisper.rejected");
    }
    const call = reg.getCall(rt.sid);
    if (outcome.type === "hangup" && call.direction === "inbound" && call.answered_at === null) {
      // Left ringing by answerOnBridge and never answered: the caller gets no answer (never billed).
      applyEvent(rt.sid, "no-answer");
      return;
    }
    if (outcome.type === "reject") {
      note(rt, "call.rejected", { reason: outcome.reason });
      applyEvent(rt.sid, outcome.reason === "busy" ? "busy" : "no-answer");
      return;
    }
    applyEvent(rt.sid, "hangup");
  }

  const start = (rt: CallRuntime, from?: Navigation) => {
    if (rt.program) return;
    const call = reg.getCall(rt.sid);
    const first: Navigation =
      from ??
      (call.twiml
        ? { kind: "twiml", twiml: call.twiml }
        : { kind: "url", url: call.url ?? "", method: call.method });
    const host: ProgramHost = {
      envFor: (url) => parts.envFor(rt, url),
      fallback: () => (call.fallback_url ? { url: call.fallback_url, method: call.fallback_method } : null),
    };
    rt.program = runCallProgram(host, first);
    scheduler.after(0, eventClass.continuation, `start ${rt.sid}`, () => step(rt, {}));
  };

  /** Drops the wait the program is in; false when it is not waiting. */
  const stopWaiting = (rt: CallRuntime) => {
    if (!rt.waiting) return false;
    scheduler.cancel(rt.waiting.timer);
    rt.waiting = null;
    return true;
  };

  const interrupt = async (rt: CallRuntime, error: Error) => {
    if (!rt.program) return;
    // A request is out (real clock): the redirect replaces its answer.
    if (rt.fetching !== null) rt.pendingInterrupt = error;
    else if (stopWaiting(rt)) await step(rt, { error });
  };

  const end = async (rt: CallRuntime) => {
    if (!rt.program) return;
    // A request is out (real clock): when it answers, the program hears that the call is over.
    if (rt.fetching !== null) return;
    stopWaiting(rt);
    await step(rt, { error: new CallEnded("hangup") });
    if (rt.program) {
      (rt.program as Generator).return(undefined);
      rt.program = null;
    }
  };

  return { start, deliver, interrupt, end };
}
