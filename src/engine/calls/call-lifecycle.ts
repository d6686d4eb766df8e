// Call lifecycle: every status change goes through the transition table, then its effects run (callbacks, markup, the end).
import type { Call, CallStatusEvent } from "../../domain/call.js";
import { isTerminalCallStatus } from "../../domain/call.js";
import type { Wake } from "../../markup/effects.js";
import { billCall } from "../billing/billing.js";
import { availableCredit, minuteCents } from "../billing/credit-holds.js";
import { statusCallbackParams } from "../callbacks/voice-params.js";
import { callCookies } from "../callbacks/webhook-cookies.js";
import { sendCallback } from "../context/engine-services.js";
import { recordEvent } from "../context/events.js";
import { eventClass } from "../time/scheduler.js";
import { startMachineDetection } from "./call-machine-detection.js";
import type { CallRegistry, LifecyclePart } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { type CallEffect, type CallEvent, transition } from "./call-transitions.js";
import { saveCall } from "./calls.js";

export function createLifecycle(reg: CallRegistry): LifecyclePart {
  const { services, parts, note, now } = reg;
  const { ctx, scheduler } = services;

  const sendStatus = (rt: CallRuntime, call: Call, event: CallStatusEvent) => {
    if (!call.status_callback) return;
    const events = call.status_callback_events.length > 0 ? call.status_callback_events : ["completed"];
    if (!events.includes(event)) return;
    const status =
      event === "initiated"
        ? "initiated"
        : event === "ringing"
          ? "ringing"
          : event === "answered"
            ? "in-progress"
            : call.status;
    sendCallback(services, {
      kind: "call-status",
      url: call.status_callback,
      method: call.status_callback_method,
      params: statusCallbackParams(ctx.store, call, status, rt.sequence++, now()),
      accountSid: call.account_sid,
      callSid: call.sid,
      orderingKey: call.parent_call_sid ?? call.sid,
      cookies: callCookies(call.sid),
    });
    note(rt, "status-callback", { event, status });
  };

  /**
   * Applies one lifecycle event through the transition table; null when it does not apply. A call the
   * engine does not drive (restored from a snapshot, or stored without the engine) changes its record
   * only: there is no program, party or callback sequence to run effects on.
   */
  function applyEvent(sid: string, event: CallEvent): Call | null {
    const rt = reg.runtime(sid);
    const current = ctx.store.calls.get(sid);
    if (!current) return null;
    const next = transition(current.status, event);
    if (!next) return null;
    const at = now();
    const changes: Partial<Call> = { status: next.status };
    if (event === "initiate") changes.start_time = at;
    if (next.status === "in-progress") changes.answered_at = at;
    if (isTerminalCallStatus(next.status)) {
      changes.end_time = at;
      changes.duration = current.answered_at === null ? 0 : Math.ceil((at - current.answered_at) / 1000);
    }
    const call = ctx.store.transact(() => {
      const saved = saveCall(ctx, current, changes);
      recordEvent(
        ctx,
        `phone_call.${event === "initiate" ? "initiated" : next.status}`,
        saved.account_sid,
        "phone_call",
        saved,
      );
      return saved;
    });
    if (!rt) {
      if (isTerminalCallStatus(call.status)) ctx.holds?.release(call.sid);
      return call;
    }
    note(rt, "status", { event, status: next.status });
    for (const effect of next.effects) runEffect(rt, call, effect);
    return call;
  }

  function runEffect(rt: CallRuntime, call: Call, effect: CallEffect) {
    switch (effect.type) {
      case "status-callback":
        sendStatus(rt, call, effect.event);
        return;
      case "consult-callee":
        parts.party.consultCallee(rt, call);
        return;
      case "start-markup":
        onAnswered(rt, call);
        return;
      case "terminal":
        onTerminal(rt);
        return;
    }
  }

  function onAnswered(rt: CallRuntime, call: Call) {
    // Ringing is over: drop the ring timers (a callee's steps and the time limit start now). An inbound
    // caller's steps have run since the call started and keep going.
    if (call.direction !== "inbound") {
      for (const handle of rt.timers) scheduler.cancel(handle);
      rt.timers = [];
    }
    reg.timer(rt, now() + call.time_limit * 1000, eventClass.control, "time limit", () => {
      reg.alert(
        rt,
        13610,
        `The call reached its time limit of ${call.time_limit} seconds and was hung up`,
        "warning",
      );
      applyEvent(rt.sid, "hangup");
    });
    holdNextMinute(rt, call, now() + 60_000);
    if (call.direction !== "inbound") parts.party.connect(rt);
    if (call.record) parts.recordings.startCallRecording(rt, call);
    if (call.send_digits && call.direction !== "inbound") parts.party.sendDigits(rt, call.send_digits);
    // Synchronous machine detection holds the markup until its result.
    if (call.direction === "outbound-api" && !startMachineDetection(reg, rt, call)) parts.program.start(rt);
    if (call.direction === "outbound-dial" && call.parent_call_sid) {
      // A Dial leg's detection is asynchronous: the whisper or the bridge goes on while it listens.
      startMachineDetection(reg, rt, call);
      // A whisper runs on the answered leg first; the parent hears ringback until it ends.
      if (rt.whisper) {
        note(rt, "whisper.start", { url: rt.whisper.url });
        parts.program.start(rt, { kind: "url", url: rt.whisper.url, method: rt.whisper.method });
      } else signalParent(call);
    }
    if (call.direction === "inbound") parts.ownNumbers.answered(call.sid);
  }

  /**
   * At each started minute of talk the call holds one more minute of credit; when the wallet cannot spare
   * it, the call is hung up there, so what it is billed (started minutes) never exceeds what it held.
   */
  function holdNextMinute(rt: CallRuntime, call: Call, at: number) {
    const cents = minuteCents(ctx, call.to);
    if (cents === 0 || !ctx.holds) return;
    reg.timer(rt, at, eventClass.control, "credit", () => {
      if (availableCredit(ctx, call.account_sid) >= cents) {
        ctx.holds?.add(call.account_sid, call.sid, cents);
        holdNextMinute(rt, call, at + 60_000);
        return;
      }
      note(rt, "credit.exhausted", { held: ctx.holds?.heldBy(call.account_sid) ?? 0 });
      applyEvent(rt.sid, "hangup");
    });
  }

  function signalParent(call: Call) {
    const parent = call.parent_call_sid ? reg.runtime(call.parent_call_sid) : undefined;
    if (!parent) return;
    const wake: Wake = { kind: "signal", name: "leg", detail: { sid: call.sid, status: call.status } };
    scheduler.after(0, eventClass.continuation, `leg ${call.sid}`, () => parts.program.deliver(parent, wake));
  }

  function onTerminal(rt: CallRuntime) {
    if (rt.finishing) return;
    rt.finishing = true;
    parts.ownNumbers.ended(rt.sid);
    for (const handle of rt.timers) scheduler.cancel(handle);
    rt.timers = [];
    scheduler.after(0, eventClass.control, `end ${rt.sid}`, () => finishCall(rt));
  }

  /** Terminal effects at one instant, in order (engine design §1). */
  async function finishCall(rt: CallRuntime) {
    // 1. The running verb cleans up (Record posts Digits=hangup, Dial posts its action).
    await parts.program.end(rt);
    // Streams still open (<Start><Stream>) send `stop` and close.
    parts.streams.callEnded(rt.sid);
    // Out of any conference or queue it was still in (others there move on).
    parts.conferences.callEnded(rt.sid);
    parts.queues.callEnded(rt.sid);
    // 2. Child legs end: canceled while ringing, completed once answered.
    for (const child of rt.children) {
      const childCall = ctx.store.calls.get(child);
      if (childCall && !isTerminalCallStatus(childCall.status)) {
        applyEvent(child, childCall.status === "in-progress" ? "hangup" : "cancel");
      }
    }
    // 3. Recordings still running end with the call.
    for (const active of [...rt.recordings.values()]) parts.recordings.end(rt, active.sid, now());
    // 4. Billing, 5. the final status callback.
    const call = reg.getCall(rt.sid);
    const billed = ctx.store.transact(() => {
      const price = billCall(ctx, call);
      const saved = price === null ? call : saveCall(ctx, call, { price, price_unit: "USD" });
      if (price !== null) recordEvent(ctx, "phone_call.priced", saved.account_sid, "phone_call", saved);
      return saved;
    });
    ctx.holds?.release(rt.sid);
    sendStatus(rt, billed, "completed");
    if (billed.direction === "outbound-dial") signalParent(billed);
    if (rt.bridgedWith) {
      const other = ctx.store.calls.get(rt.bridgedWith);
      // The far end of a bridge that hung up: its parent's Dial hears about it through the signal.
      if (other && other.sid === billed.parent_call_sid) rt.bridgedWith = null;
    }
    reg.retire(rt);
  }

  return { applyEvent, sendStatus, signalParent };
}
