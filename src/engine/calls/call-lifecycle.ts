// Call lifecycle: every status change goes through the transition table, then its effects run (callbacks, markup, the end).
import type { Call } from "../../domain/call.js";
import { isTerminalCallStatus } from "../../domain/call.js";
import { recordEvent } from "../context/events.js";
import { onAnswered } from "./call-answered.js";
import { onTerminal } from "./call-ended.js";
import { sendStatus, signalParent } from "./call-notify.js";
import type { CallRegistry, LifecyclePart } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { type CallEffect, type CallEvent, transition } from "./call-transitions.js";
import { saveCall } from "./calls.js";

export function createLifecycle(reg: CallRegistry): LifecyclePart {
  return {
    applyEvent: (sid, event) => applyEvent(reg, sid, event),
    sendStatus: (rt, call, event) => sendStatus(reg, rt, call, event),
    signalParent: (call) => signalParent(reg, call),
  };
}

/**
 * Applies one lifecycle event through the transition table; null when it does not apply. A call the
 * engine does not drive (restored from a snapshot, or stored without the engine) changes its record
 * only: there is no program, party or callback sequence to run effects on.
 */
function applyEvent(reg: CallRegistry, sid: string, event: CallEvent): Call | null {
  const { ctx } = reg.services;
  const rt = reg.runtime(sid);
  const current = ctx.store.calls.get(sid);
  if (!current) return null;
  const next = transition(current.status, event);
  if (!next) return null;
  const at = reg.now();
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
  reg.note(rt, "status", { event, status: next.status });
  for (const effect of next.effects) runEffect(reg, rt, call, effect);
  return call;
}

/** One effect the transition table names for the change. */
function runEffect(reg: CallRegistry, rt: CallRuntime, call: Call, effect: CallEffect): void {
  switch (effect.type) {
    case "status-callback":
      sendStatus(reg, rt, call, effect.event);
      return;
    case "consult-callee":
      reg.parts.party.consultCallee(rt, call);
      return;
    case "start-markup":
      onAnswered(reg, rt, call);
      return;
    case "terminal":
      onTerminal(reg, rt);
      return;
  }
}
