// How the engine takes up a call: an outbound call the API just placed, or an inbound call ringing a sandbox number.
import type { Call } from "../../domain/call.js";
import { errors } from "../../domain/errors.js";
import { applicationVoiceHandlers, numberVoiceHandlers } from "../accounts/applications.js";
import { assertMayCall, holdFirstMinute } from "../billing/call-admission.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import { createRuntime } from "./call-runtime.js";
import type { CallEvent } from "./call-transitions.js";
import { createCallRecord, saveCall } from "./calls.js";
import { defaultBehaviour, type PartyBehaviourInput, parseBehaviour } from "./party-behaviour.js";

export interface InboundRing {
  from: string;
  /** The incoming number rung; for a client's call through an application, the To it asked for (may be ""). */
  to: string;
  /** A Voice SDK client's outgoing call: the application (TwiML App) whose voice handlers answer it. */
  applicationSid?: string | undefined;
  /** What the caller does (timed from the moment the call starts). Default: listens, never hangs up. */
  caller?: PartyBehaviourInput | undefined;
  callerName?: string | undefined;
  forwardedFrom?: string | undefined;
}

/** Starts the lifecycle of a queued outbound-api call the account or carrier API just placed; returns it. */
export function startOutbound(reg: CallRegistry, call: Call): Call {
  if (reg.runtimes.has(call.sid) || call.status !== "queued") return call;
  const found = reg.parts.party.behaviourFor(call.to);
  const rt = createRuntime(call.sid, found.behaviour, found.scripted);
  reg.runtimes.set(call.sid, rt);
  reg.note(rt, "call.created", { direction: call.direction });
  reg.services.scheduler.after(0, eventClass.control, `initiate ${call.sid}`, () => {
    reg.parts.lifecycle.applyEvent(call.sid, "initiate");
  });
  return call;
}

/** Rings one of the sandbox's incoming numbers from outside (an inbound call): stored ringing, its markup started. */
export function ringInbound(reg: CallRegistry, input: InboundRing): Call {
  const { parts, note, now } = reg;
  const { ctx, scheduler } = reg.services;
  // A client's call goes to its application's handlers; any other call to the number rung.
  const application = input.applicationSid ? ctx.store.applications.get(input.applicationSid) : undefined;
  if (input.applicationSid && !application?.voice_url)
    throw errors.applicationNotRunnable(input.applicationSid);
  const number = application ? undefined : ctx.store.phoneNumbers.findOne("number", input.to);
  if (!application && (!number || number.account_sid === null)) throw errors.numberNotRouted(input.to);
  const accountSid = application ? application.account_sid : number!.account_sid!;
  assertMayCall(ctx, accountSid, input.to);
  const fault = ctx.faults?.take("number", input.from, now()) ?? ctx.faults?.take("number", input.to, now());
  const caller = input.caller
    ? parseBehaviour(input.caller)
    : (reg.parties.get(input.from) ?? defaultBehaviour);
  const scripted = caller.steps.length > 0 || caller.hangupAfter !== undefined;
  const created = createCallRecord(ctx, {
    accountSid,
    direction: "inbound",
    from: input.from,
    to: input.to,
    phoneNumberSid: number?.sid ?? null,
    // A number with a VoiceApplicationSid runs the application's handlers, as Twilio's do.
    ...(application ? applicationVoiceHandlers(application) : numberVoiceHandlers(ctx, number!)),
    callerName: input.callerName ?? null,
  });
  holdFirstMinute(ctx, created.account_sid, created.sid, created.to);
  const call = input.forwardedFrom
    ? saveCall(ctx, created, { forwarded_from: input.forwardedFrom })
    : created;
  const rt = createRuntime(call.sid, caller, scripted);
  reg.runtimes.set(call.sid, rt);
  note(rt, "call.created", { direction: "inbound" });
  saveCall(ctx, reg.getCall(call.sid), { start_time: now() });
  const ringing = parts.lifecycle.applyEvent(call.sid, "ring") ?? reg.getCall(call.sid);
  if (fault) {
    // A faulted number: the call never reaches the markup.
    const event: CallEvent = fault.outcome === "fail" ? "fail" : fault.outcome;
    scheduler.after(0, eventClass.input, `fault ${call.sid}`, () => {
      parts.lifecycle.applyEvent(call.sid, event);
    });
    return ringing;
  }
  parts.party.connect(rt);
  parts.program.start(rt);
  return ringing;
}
