// What answering does to a call: ring timers dropped, time limit and credit armed, the party, recording and markup started.
import type { Call } from "../../domain/call.js";
import { availableCredit, minuteCents } from "../billing/credit-holds.js";
import { eventClass } from "../time/scheduler.js";
import { startMachineDetection } from "./call-machine-detection.js";
import { signalParent } from "./call-notify.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";

/** The `start-markup` effect of an answer: everything that starts once the call is in progress. */
export function onAnswered(reg: CallRegistry, rt: CallRuntime, call: Call): void {
  const { parts, note, now } = reg;
  // Ringing is over: drop the ring timers (a callee's steps and the time limit start now). An inbound
  // caller's steps have run since the call started and keep going.
  if (call.direction !== "inbound") {
    for (const handle of rt.timers) reg.services.scheduler.cancel(handle);
    rt.timers = [];
  }
  reg.timer(rt, now() + call.time_limit * 1000, eventClass.control, "time limit", () => {
    reg.alert(
      rt,
      13610,
      `The call reached its time limit of ${call.time_limit} seconds and was hung up`,
      "warning",
    );
    parts.lifecycle.applyEvent(rt.sid, "hangup");
  });
  holdNextMinute(reg, rt, call, now() + 60_000);
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
    } else signalParent(reg, call);
  }
  if (call.direction === "inbound") parts.ownNumbers.answered(call.sid);
}

/**
 * At each started minute of talk the call holds one more minute of credit; when the wallet cannot spare
 * it, the call is hung up there, so what it is billed (started minutes) never exceeds what it held.
 */
function holdNextMinute(reg: CallRegistry, rt: CallRuntime, call: Call, at: number): void {
  const { ctx } = reg.services;
  const cents = minuteCents(ctx, call.to);
  if (cents === 0 || !ctx.holds) return;
  reg.timer(rt, at, eventClass.control, "credit", () => {
    if (availableCredit(ctx, call.account_sid) >= cents) {
      ctx.holds?.add(call.account_sid, call.sid, cents);
      holdNextMinute(reg, rt, call, at + 60_000);
      return;
    }
    reg.note(rt, "credit.exhausted", { held: ctx.holds?.heldBy(call.account_sid) ?? 0 });
    reg.parts.lifecycle.applyEvent(rt.sid, "hangup");
  });
}
