// Phones held from outside the engine (the inspector's browser phone): a call to a held number or client rings them, and they answer or decline.
import type { Call } from "../../domain/call.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry, PhoneHolder } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";

export type { PhoneHolder } from "./call-registry.js";

export interface HeldPhones {
  /**
   * Holds `address` (`client:name` or a number): calls to it ring `holder` instead of the simulated party.
   * Null when another holder has it; else the release.
   */
  hold(address: string, holder: PhoneHolder): (() => void) | null;
  /** True while a holder has `address`. */
  held(address: string): boolean;
  /** The held phone takes the ringing call: false when the call does not ring a held phone now. */
  answer(callSid: string): boolean;
  /** The held phone declines the ringing call (busy, SIP 603): false when the call does not ring a held phone now. */
  decline(callSid: string): boolean;
}

/** Rings a held phone for an outbound leg to it (true), or leaves the leg to the simulated party (false). */
export function ringHeldPhone(reg: CallRegistry, rt: CallRuntime, call: Call): boolean {
  const holder = reg.heldPhones.get(call.to);
  if (!holder) return false;
  reg.timer(rt, reg.now(), eventClass.input, "ring", () => {
    reg.ringingPhones.add(call.sid);
    void reg.parts.lifecycle.applyEvent(rt.sid, "ring");
    reg.note(rt, "phone.ringing", { address: call.to });
    holder.ring(reg.getCall(call.sid));
  });
  return true;
}

/** The call rings a held phone now (it is live and not yet answered). */
function takeRinging(reg: CallRegistry, callSid: string): CallRuntime | undefined {
  const set = reg.ringingPhones;
  if (!set.has(callSid)) return undefined;
  set.delete(callSid);
  const rt = reg.runtime(callSid);
  const status = reg.services.ctx.store.calls.get(callSid)?.status;
  return rt && !rt.finishing && (status === "ringing" || status === "queued") ? rt : undefined;
}

export function createHeldPhones(reg: CallRegistry): HeldPhones {
  const act = (callSid: string, what: "answer" | "decline") => {
    const rt = takeRinging(reg, callSid);
    if (!rt) return false;
    reg.services.scheduler.after(0, eventClass.input, `phone ${what} ${callSid}`, () => {
      reg.note(rt, `phone.${what}`);
      if (what === "decline") rt.sipResponseCode = 603;
      reg.parts.lifecycle.applyEvent(rt.sid, what === "answer" ? "answer" : "busy");
    });
    return true;
  };
  return {
    hold(address, holder) {
      if (reg.heldPhones.has(address)) return null;
      reg.heldPhones.set(address, holder);
      return () => {
        if (reg.heldPhones.get(address) === holder) reg.heldPhones.delete(address);
      };
    },
    held: (address) => reg.heldPhones.has(address),
    answer: (callSid) => act(callSid, "answer"),
    decline: (callSid) => act(callSid, "decline"),
  };
}
