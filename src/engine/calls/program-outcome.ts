// What a call's program returning means for the call: it ends as the outcome says, or a whisper's end bridges it.
import type { Outcome } from "../../markup/effects.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";

/** The program returned: the call ends as its outcome says (a whisper's end bridges instead). */
export function finishProgram(reg: CallRegistry, rt: CallRuntime, outcome: Outcome): void {
  const { parts, note } = reg;
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
