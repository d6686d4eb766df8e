// Call control from the account API: hang up, cancel, redirect, delete.
// When a call engine drives the call, hang up, cancel and redirect go through it (transition table, verb
// cleanup, callbacks, billing); without one (a bare engine context) they change the record only.
import { type Call, isTerminalCallStatus } from "../domain/call.js";
import { errors } from "../domain/errors.js";
import type { EngineContext } from "./context.js";
import { callEngineOf } from "./engine-registry.js";
import { recordEvent } from "./events.js";

const isLive = (call: Call) => !isTerminalCallStatus(call.status);

function endCall(ctx: EngineContext, call: Call, status: "completed" | "canceled"): Call {
  return ctx.store.transact(() => {
    const now = ctx.clock.now();
    const ended = ctx.store.calls.replace({
      ...call,
      status,
      end_time: now,
      // Duration counts from answer; a call ended before answer lasted 0 seconds.
      duration: call.answered_at === null ? 0 : Math.floor((now - call.answered_at) / 1000),
      updated_at: now,
    });
    recordEvent(ctx, `phone_call.${status}`, call.account_sid, "phone_call", ended);
    return ended;
  });
}

/**
 * Status=completed: an answered call is hung up and becomes `completed`; a call not yet answered
 * (queued or ringing) is ended before answer, which Twilio reports as `canceled`. A finished call is left alone.
 */
export function hangupCall(ctx: EngineContext, call: Call): Call {
  if (!isLive(call)) return call;
  const engine = callEngineOf(ctx);
  if (engine?.drives(call.sid)) return engine.hangup(call.sid);
  return endCall(ctx, call, call.status === "in-progress" ? "completed" : "canceled");
}

/** Status=canceled: only a queued or ringing call changes; Twilio leaves answered and finished calls alone. */
export function cancelCall(ctx: EngineContext, call: Call): Call {
  if (call.status !== "queued" && call.status !== "ringing") return call;
  const engine = callEngineOf(ctx);
  if (engine?.drives(call.sid)) return engine.cancel(call.sid);
  return endCall(ctx, call, "canceled");
}

export interface RedirectTarget {
  url?: string | null;
  method?: "GET" | "POST";
  twiml?: string | null;
}

/** Url or Twiml on a live call: the call continues with the new markup; otherwise Twilio's 21220. */
export function redirectCall(ctx: EngineContext, call: Call, target: RedirectTarget): Call {
  if (!isLive(call)) throw errors.callNotLive(call.sid, call.status);
  return ctx.store.transact(() => {
    // Twiml and Url replace each other: the call follows whichever was given last.
    const redirected = ctx.store.calls.replace({
      ...call,
      url: target.twiml ? null : (target.url ?? call.url),
      twiml: target.twiml ?? (target.url ? null : call.twiml),
      method: target.method ?? call.method,
      updated_at: ctx.clock.now(),
    });
    recordEvent(ctx, "phone_call.redirected", call.account_sid, "phone_call", redirected);
    // A call running markup stops its verb and runs the new markup (after this change commits).
    callEngineOf(ctx)?.redirect(
      call.sid,
      target.twiml
        ? { kind: "twiml", twiml: target.twiml }
        : { kind: "url", url: redirected.url ?? "", method: redirected.method },
    );
    return redirected;
  });
}

/** Removes a finished call's record; a live call is Twilio's 20009. */
export function deleteCall(ctx: EngineContext, call: Call): void {
  if (isLive(call)) throw errors.notFinished("call", call.sid, call.status);
  ctx.store.transact(() => {
    ctx.store.calls.delete(call.sid);
    recordEvent(ctx, "phone_call.deleted", call.account_sid, "phone_call", call);
  });
}

export interface CallUpdate extends RedirectTarget {
  status?: "canceled" | "completed";
  fallbackUrl?: string | null;
  fallbackMethod?: "GET" | "POST";
  statusCallback?: string | null;
  statusCallbackMethod?: "GET" | "POST";
  timeLimit?: number;
}

/** POST to a call: settings first, then Status (which wins over a redirect given with it) or a redirect. */
export function updateCall(ctx: EngineContext, call: Call, update: CallUpdate): Call {
  return ctx.store.transact(() => {
    const settings = Object.fromEntries(
      Object.entries({
        fallback_url: update.fallbackUrl,
        fallback_method: update.fallbackMethod,
        status_callback: update.statusCallback,
        status_callback_method: update.statusCallbackMethod,
        time_limit: update.timeLimit,
      }).filter(([, value]) => value !== undefined),
    );
    let current = call;
    if (Object.keys(settings).length > 0) {
      current = ctx.store.calls.replace({ ...call, ...settings, updated_at: ctx.clock.now() });
    }
    if (update.status === "canceled") return cancelCall(ctx, current);
    if (update.status === "completed") return hangupCall(ctx, current);
    if (update.url || update.twiml) return redirectCall(ctx, current, update);
    return current;
  });
}
