// The end of a call: its terminal effects at one instant, in order (verb cleanup, legs, recordings, billing, final callback).
import { isTerminalCallStatus } from "../../domain/call.js";
import { billCall } from "../billing/billing.js";
import { recordEvent } from "../context/events.js";
import { recordingUrl } from "../recordings/recordings.js";
import { eventClass } from "../time/scheduler.js";
import { sendStatus, signalParent } from "./call-notify.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { saveCall } from "./calls.js";

/**
 * Twilio's `Record` on a call's create: "The `recording_url` is sent to the `status_callback` URL": the call's own
 * recording (source OutboundAPI) as its `completed` callback names it, once it is complete.
 */
function callRecordingParams(reg: CallRegistry, callSid: string): Record<string, string> {
  const recording = reg.services.ctx.store.recordings
    .where("call", callSid)
    .find((r) => r.source === "OutboundAPI" && r.duration !== null);
  if (!recording) return {};
  return {
    RecordingDuration: String(recording.duration),
    RecordingSid: recording.sid,
    RecordingUrl: recordingUrl(reg.services, recording),
  };
}

/** The `terminal` effect: timers dropped now, the rest of the end scheduled at this instant. */
export function onTerminal(reg: CallRegistry, rt: CallRuntime): void {
  if (rt.finishing) return;
  rt.finishing = true;
  reg.parts.ownNumbers.ended(rt.sid);
  const { scheduler } = reg.services;
  for (const handle of rt.timers) scheduler.cancel(handle);
  rt.timers = [];
  scheduler.after(0, eventClass.control, `end ${rt.sid}`, () => finishCall(reg, rt));
}

/** Terminal effects at one instant, in order (engine design §1). */
async function finishCall(reg: CallRegistry, rt: CallRuntime): Promise<void> {
  const { parts } = reg;
  const { ctx } = reg.services;
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
      parts.lifecycle.applyEvent(child, childCall.status === "in-progress" ? "hangup" : "cancel");
    }
  }
  // 3. Recordings still running end with the call.
  for (const active of [...rt.recordings.values()]) parts.recordings.end(rt, active.sid, reg.now());
  // 4. Billing, 5. the final status callback.
  const call = reg.getCall(rt.sid);
  const billed = ctx.store.transact(() => {
    const price = billCall(ctx, call);
    const saved = price === null ? call : saveCall(ctx, call, { price, price_unit: "USD" });
    if (price !== null) recordEvent(ctx, "phone_call.priced", saved.account_sid, "phone_call", saved);
    return saved;
  });
  ctx.holds?.release(rt.sid);
  sendStatus(reg, rt, billed, "completed", billed.record ? callRecordingParams(reg, billed.sid) : {});
  if (billed.direction === "outbound-dial") signalParent(reg, billed);
  if (rt.bridgedWith) {
    const other = ctx.store.calls.get(rt.bridgedWith);
    // The far end of a bridge that hung up: its parent's Dial hears about it through the signal.
    if (other && other.sid === billed.parent_call_sid) rt.bridgedWith = null;
  }
  reg.retire(rt);
}
