// Call control from the account API and the sandbox's own operations: hang up, cancel, redirect, update, delete.
// Every status change goes through the lifecycle (the transition table); a call the engine drives also runs
// the effects (verb cleanup, callbacks, billing).
import { type Call, isTerminalCallStatus } from "../../domain/call.js";
import { errors } from "../../domain/errors.js";
import { type Navigation, Redirected } from "../../markup/effects.js";
import { recordEvent } from "../context/events.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";

export interface RedirectTarget {
  url?: string | null;
  method?: "GET" | "POST";
  twiml?: string | null;
}

export interface CallUpdate extends RedirectTarget {
  status?: "canceled" | "completed";
  fallbackUrl?: string | null;
  fallbackMethod?: "GET" | "POST";
  statusCallback?: string | null;
  statusCallbackMethod?: "GET" | "POST";
  timeLimit?: number;
}

export interface CallControl {
  /**
   * Status=completed: an answered call is hung up and becomes `completed`; a call not yet answered
   * (queued or ringing) is ended before answer, which Twilio reports as `canceled`. A finished call is left alone.
   */
  hangup(call: Call): Call;
  /** Status=canceled: only a queued or ringing call changes; Twilio leaves answered and finished calls alone. */
  cancel(call: Call): Call;
  /** Url or Twiml on a live call: the call continues with the new markup; otherwise Twilio's 21220. */
  redirect(call: Call, target: RedirectTarget): Call;
  /** POST to a call: settings first, then Status (which wins over a redirect given with it) or a redirect. */
  update(call: Call, update: CallUpdate): Call;
  /** Removes a finished call's record; a live call is Twilio's 20009. */
  remove(call: Call): void;
  /** Runs new markup on a call the engine drives, leaving its record alone (a queue member dequeued to a URL). */
  redirectLive(callSid: string, to: Navigation): void;
}

const isLive = (call: Call) => !isTerminalCallStatus(call.status);

export function createCallControl(reg: CallRegistry): CallControl {
  const { ctx, scheduler } = reg.services;
  const applyEvent = (call: Call, event: "hangup" | "cancel") =>
    reg.parts.lifecycle.applyEvent(call.sid, event) ?? reg.getCall(call.sid);

  /** A call running markup stops its verb and runs the new markup; one not answered yet uses it on answer. */
  const redirectLive = (callSid: string, to: Navigation) => {
    const rt = reg.runtime(callSid);
    if (!rt) return;
    reg.note(rt, "call.redirect", to.kind === "url" ? { url: to.url } : { twiml: true });
    scheduler.after(0, eventClass.control, `redirect ${callSid}`, () => {
      if (rt.finishing) return;
      return reg.parts.program.interrupt(rt, new Redirected(to));
    });
  };

  const control: CallControl = {
    redirectLive,
    hangup: (call) => (isLive(call) ? applyEvent(call, "hangup") : call),
    cancel: (call) =>
      call.status === "queued" || call.status === "ringing" ? applyEvent(call, "cancel") : call,
    redirect(call, target) {
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
        redirectLive(
          call.sid,
          target.twiml
            ? { kind: "twiml", twiml: target.twiml }
            : { kind: "url", url: redirected.url ?? "", method: redirected.method },
        );
        return redirected;
      });
    },
    update(call, update) {
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
        if (update.status === "canceled") return control.cancel(current);
        if (update.status === "completed") return control.hangup(current);
        if (update.url || update.twiml) return control.redirect(current, update);
        return current;
      });
    },
    remove(call) {
      if (isLive(call)) throw errors.notFinished("call", call.sid, call.status);
      ctx.store.transact(() => {
        ctx.store.calls.delete(call.sid);
        recordEvent(ctx, "phone_call.deleted", call.account_sid, "phone_call", call);
      });
    },
  };
  return control;
}
