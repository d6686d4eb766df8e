// Calls to the sandbox's own incoming numbers: the number rings as a real inbound call, linked to the leg that dialled it.
import type { Call } from "../../domain/call.js";
import { isTerminalCallStatus } from "../../domain/call.js";
import type { EngineContext } from "../context/context.js";
import type { CallEvent } from "./call-transitions.js";

export interface OwnNumberHost {
  /** Rings one of the sandbox's numbers as an inbound call (the engine's `ring`); throws when refused. */
  ring(input: { from: string; to: string; caller: Record<string, never> }): Call;
  applyEvent(sid: string, event: CallEvent): Call | null;
  note(sid: string, kind: string, detail?: Record<string, unknown>): void;
  /** Runs `task` at the current instant, after the event being handled. */
  soon(label: string, task: () => void): void;
}

export interface OwnNumberCalls {
  /**
   * Called when an outbound leg (API call or Dial leg) starts dialling: true when its To is an assigned
   * incoming number, which then rings as an inbound call instead of a simulated party answering.
   */
  dial(call: Call): boolean;
  /** The other end of a linked pair, if the call is one. */
  partnerOf(sid: string): string | undefined;
  /** The inbound end was answered by its markup: the dialling leg is answered too. */
  answered(sid: string): void;
  /** One end finished: the other follows (hang-up once talking; otherwise busy, no-answer or cancel). */
  ended(sid: string): void;
  reset(): void;
}

/**
 * Most own-number hops one call may chain through (a number whose markup dials another of the sandbox's
 * numbers, which dials another...). Past it the dialling leg fails, so a number that dials itself ends
 * instead of ringing itself forever, as SIP's Max-Forwards stops a forwarding loop.
 */
export const maxOwnNumberHops = 10;

/** How the dialling leg ends when the inbound call it rang ends without being answered. */
const legEventFor: Partial<Record<Call["status"], CallEvent>> = {
  busy: "busy",
  failed: "fail",
};

export function createOwnNumberCalls(ctx: EngineContext, host: OwnNumberHost): OwnNumberCalls {
  const partners = new Map<string, string>();
  /** The inbound ends of linked pairs. */
  const inbound = new Set<string>();

  /** How many own-number hops led to `call`: its origin is an inbound call that another leg rang, and so on. */
  const hopsBefore = (call: Call): number => {
    let hops = 0;
    let current: Call | undefined = call;
    while (current && hops < maxOwnNumberHops) {
      const origin: Call | undefined = current.parent_call_sid
        ? ctx.store.calls.get(current.parent_call_sid)
        : current;
      const leg = origin && inbound.has(origin.sid) ? partners.get(origin.sid) : undefined;
      if (!leg) break;
      current = ctx.store.calls.get(leg);
      hops++;
    }
    return hops;
  };

  const api: OwnNumberCalls = {
    dial(call) {
      const number = ctx.store.phoneNumbers.findOne("number", call.to);
      if (!number || number.account_sid === null || call.direction === "inbound") return false;
      if (hopsBefore(call) >= maxOwnNumberHops) {
        host.soon(`own number loop ${call.sid}`, () => {
          host.note(call.sid, "own-number.loop", { to: call.to, hops: maxOwnNumberHops });
          host.applyEvent(call.sid, "fail");
        });
        return true;
      }
      host.soon(`own number ${call.sid}`, () => {
        host.applyEvent(call.sid, "ring");
        let rung: Call;
        try {
          // The inbound call's caller is the dialling leg: no simulated script of its own.
          rung = host.ring({ from: call.from, to: call.to, caller: {} });
        } catch (error) {
          // The number's account may not take calls (suspended, no credit): the dialled call fails.
          host.note(call.sid, "own-number.refused", {
            message: error instanceof Error ? error.message : String(error),
          });
          host.applyEvent(call.sid, "fail");
          return;
        }
        partners.set(call.sid, rung.sid);
        partners.set(rung.sid, call.sid);
        inbound.add(rung.sid);
        host.note(call.sid, "own-number.ring", { sid: rung.sid, to: call.to });
        host.note(rung.sid, "own-number.dialled-by", { sid: call.sid });
        // The inbound call may already be over (a fault, a Reject at once).
        if (isTerminalCallStatus(rung.status)) api.ended(rung.sid);
      });
      return true;
    },
    partnerOf: (sid) => partners.get(sid),
    answered(sid) {
      const leg = inbound.has(sid) ? partners.get(sid) : undefined;
      if (!leg) return;
      const call = ctx.store.calls.get(leg);
      if (call && call.answered_at === null) host.applyEvent(leg, "answer");
    },
    ended(sid) {
      const other = partners.get(sid);
      const ended = ctx.store.calls.get(sid);
      if (!other || !ended) return;
      host.soon(`own number end ${other}`, () => {
        const call = ctx.store.calls.get(other);
        if (!call || isTerminalCallStatus(call.status)) return;
        if (call.status === "in-progress") {
          host.applyEvent(other, "hangup");
        } else if (inbound.has(other)) {
          // The dialling leg gave up (ring timeout, cancel, its caller hung up): the inbound call is canceled.
          host.applyEvent(other, "cancel");
        } else {
          host.applyEvent(other, legEventFor[ended.status] ?? "no-answer");
        }
      });
    },
    reset() {
      partners.clear();
      inbound.clear();
    },
  };
  return api;
}
