// Call records: building and storing a new call, and saving a new version; call-lifecycle.ts moves their status.
import type { Call, CallDirection, CallStatusEvent, MachineDetectionOptions } from "../../domain/call.js";
import { assertMayCall, holdFirstMinute } from "../billing/call-admission.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";

export interface NewCall {
  accountSid: string;
  direction: CallDirection;
  from: string;
  to: string;
  parentCallSid?: string | null;
  phoneNumberSid?: string | null;
  url?: string | null;
  method?: "GET" | "POST";
  twiml?: string | null;
  fallbackUrl?: string | null;
  fallbackMethod?: "GET" | "POST";
  statusCallback?: string | null;
  statusCallbackMethod?: "GET" | "POST";
  statusCallbackEvents?: CallStatusEvent[];
  timeout?: number;
  timeLimit?: number;
  record?: boolean;
  recordingChannels?: "mono" | "dual";
  recordingStatusCallback?: string | null;
  recordingStatusCallbackMethod?: "GET" | "POST";
  recordingStatusCallbackEvents?: string[];
  recordingTrack?: "inbound" | "outbound" | "both";
  recordingTrim?: boolean;
  sendDigits?: string | null;
  machineDetection?: string | null;
  machineDetectionOptions?: MachineDetectionOptions | null;
  callerName?: string | null;
  trunkSid?: string | null;
}

/**
 * Creates the call record in `queued`; the call engine runs it once the caller hands it over
 * (`CallEngine.start` for API calls; the engine itself for inbound calls and Dial legs). API calls need an
 * active account with credit for their first minute, which they hold from then on (see call-admission.ts).
 */
export function createCallRecord(ctx: EngineContext, input: NewCall): Call {
  const admitted = input.direction === "outbound-api";
  if (admitted) assertMayCall(ctx, input.accountSid, input.to);
  return ctx.store.transact(() => {
    const call = ctx.store.calls.insert(callRecord(input, ctx.ids.mint("CA"), ctx.clock.now()));
    recordEvent(ctx, "phone_call.created", call.account_sid, "phone_call", call);
    if (admitted) holdFirstMinute(ctx, call.account_sid, call.sid, call.to);
    return call;
  });
}

/** A new call as it is first answered, `queued` (not stored: createCallRecord stores it, test credentials do not). */
export function callRecord(input: NewCall, sid: string, now: number): Call {
  return {
    sid,
    account_sid: input.accountSid,
    parent_call_sid: input.parentCallSid ?? null,
    direction: input.direction,
    from: input.from,
    to: input.to,
    status: "queued",
    phone_number_sid: input.phoneNumberSid ?? null,
    caller_name: input.callerName ?? null,
    forwarded_from: null,
    url: input.url ?? null,
    method: input.method ?? "POST",
    twiml: input.twiml ?? null,
    fallback_url: input.fallbackUrl ?? null,
    fallback_method: input.fallbackMethod ?? "POST",
    status_callback: input.statusCallback ?? null,
    status_callback_method: input.statusCallbackMethod ?? "POST",
    status_callback_events: input.statusCallbackEvents ?? [],
    timeout: input.timeout ?? 60,
    time_limit: input.timeLimit ?? 14_400,
    record: input.record ?? false,
    recording_channels: input.recordingChannels ?? "mono",
    recording_status_callback: input.recordingStatusCallback ?? null,
    recording_status_callback_method: input.recordingStatusCallbackMethod ?? "POST",
    recording_status_callback_events: input.recordingStatusCallbackEvents ?? ["completed"],
    recording_track: input.recordingTrack ?? "both",
    recording_trim: input.recordingTrim ?? false,
    send_digits: input.sendDigits ?? null,
    machine_detection: input.machineDetection ?? null,
    machine_detection_options: input.machineDetection ? (input.machineDetectionOptions ?? null) : null,
    answered_by: null,
    machine_detection_duration: null,
    trunk_sid: input.trunkSid ?? null,
    annotation: null,
    group_sid: null,
    start_time: null,
    answered_at: null,
    end_time: null,
    duration: null,
    price: null,
    price_unit: "USD",
    created_at: now,
    updated_at: now,
  };
}

/** Writes a new version of a call (status changes go through call-lifecycle.ts, which calls this). */
export function saveCall(ctx: EngineContext, call: Call, changes: Partial<Call>): Call {
  return ctx.store.calls.replace({ ...call, ...changes, updated_at: ctx.clock.now() });
}
