// What a call's status change tells others: the customer's status callback, and the Dial leg's parent program.
import type { Call, CallStatusEvent } from "../../domain/call.js";
import type { Wake } from "../../markup/effects.js";
import { statusCallbackParams } from "../callbacks/voice-params.js";
import { callCookies } from "../callbacks/webhook-cookies.js";
import { sendCallback } from "../context/engine-services.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { sipResponseFor } from "./party-behaviour.js";

/** Sends a status callback for `event` if the call subscribed to it (`extra`: parameters only this event has). */
export function sendStatus(
  reg: CallRegistry,
  rt: CallRuntime,
  call: Call,
  event: CallStatusEvent,
  extra: Record<string, string> = {},
): void {
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
  sendCallback(reg.services, {
    kind: "call-status",
    url: call.status_callback,
    method: call.status_callback_method,
    params: {
      ...statusCallbackParams(reg.services.ctx.store, call, status, rt.sequence++, reg.now()),
      ...extra,
    },
    accountSid: call.account_sid,
    callSid: call.sid,
    orderingKey: call.parent_call_sid ?? call.sid,
    cookies: callCookies(call.sid),
  });
  reg.note(rt, "status-callback", { event, status });
}

/**
 * Tells a Dial leg's parent program that the leg moved on; a `sip:` leg tells its final SIP response and the
 * INVITE's Call-ID too (the leg's sid digits at the sandbox's SIP host).
 */
export function signalParent(reg: CallRegistry, call: Call): void {
  const parent = call.parent_call_sid ? reg.runtime(call.parent_call_sid) : undefined;
  if (!parent) return;
  const detail: Record<string, unknown> = { sid: call.sid, status: call.status };
  if (call.to.startsWith("sip:")) {
    detail.sipResponseCode = reg.runtime(call.sid)?.sipResponseCode ?? sipResponseFor(call.status);
    detail.sipCallId = `${call.sid.slice(2)}@sip.voice-sandbox.test`;
  }
  const wake: Wake = { kind: "signal", name: "leg", detail };
  reg.services.scheduler.after(0, eventClass.continuation, `leg ${call.sid}`, () =>
    reg.parts.program.deliver(parent, wake),
  );
}
