// Parameters Twilio sends about a call: on markup fetches and action requests, and on status callbacks.
import type { Call, CallStatus } from "../../domain/call.js";
import type { Store } from "../../domain/store.js";
import { locateNumber, locationParams } from "../location/number-location.js";
import { rfc2822 } from "../time/timestamps.js";

export const apiVersion = "2010-04-01";

/**
 * The standard voice request parameters ("TwiML Voice: Twilio's Request"), with the legacy Caller/Called
 * copies: the location of both numbers is always sent, with empty values where it is not known.
 */
export function voiceParams(
  store: Store,
  call: Call,
  status: CallStatus | "initiated" = call.status,
): Record<string, string> {
  const params: Record<string, string> = {
    AccountSid: call.account_sid,
    ApiVersion: apiVersion,
    CallSid: call.sid,
    CallStatus: status,
    Called: call.to,
    Caller: call.from,
    Direction: call.direction,
    From: call.from,
    To: call.to,
  };
  const from = locateNumber(store, call.from);
  const to = locateNumber(store, call.to);
  Object.assign(
    params,
    locationParams("From", from),
    locationParams("Caller", from),
    locationParams("To", to),
    locationParams("Called", to),
  );
  if (call.parent_call_sid) params.ParentCallSid = call.parent_call_sid;
  if (call.forwarded_from) params.ForwardedFrom = call.forwarded_from;
  if (call.caller_name) params.CallerName = call.caller_name;
  // Synchronous machine detection: its result rides on the call's requests (AsyncAmd sends it to its own URL).
  if (call.answered_by !== null && !call.machine_detection_options?.async) {
    params.AnsweredBy = call.answered_by;
    if (call.machine_detection_duration !== null)
      params.MachineDetectionDuration = String(call.machine_detection_duration);
  }
  return params;
}

/**
 * A status callback, built when the transition happens (not when it is delivered): `answered` reports
 * CallStatus=in-progress, terminal events carry CallDuration and Duration (billed minutes).
 */
export function statusCallbackParams(
  store: Store,
  call: Call,
  callStatus: CallStatus | "initiated",
  sequenceNumber: number,
  now: number,
): Record<string, string> {
  const params: Record<string, string> = {
    ...voiceParams(store, call, callStatus),
    CallbackSource: "call-progress-events",
    SequenceNumber: String(sequenceNumber),
    Timestamp: rfc2822(now),
  };
  if (call.end_time !== null) {
    const seconds = call.duration ?? 0;
    params.CallDuration = String(seconds);
    params.Duration = String(Math.ceil(seconds / 60));
  }
  if (call.status === "busy") params.SipResponseCode = "486";
  return params;
}
