// Parameters Twilio sends about a call: on markup fetches and action requests, and on status callbacks.
import type { Call, CallStatus } from "../domain/call.js";
import { countryOf } from "./phone-numbers.js";
import { rfc2822 } from "./timestamps.js";

export const apiVersion = "2010-04-01";

/** The standard voice request parameters ("TwiML Voice: Twilio's Request"), with the legacy Caller/Called copies. */
export function voiceParams(
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
  const fromCountry = countryOf(call.from);
  const toCountry = countryOf(call.to);
  if (fromCountry) params.FromCountry = fromCountry;
  if (toCountry) params.ToCountry = toCountry;
  if (call.parent_call_sid) params.ParentCallSid = call.parent_call_sid;
  if (call.forwarded_from) params.ForwardedFrom = call.forwarded_from;
  if (call.caller_name) params.CallerName = call.caller_name;
  return params;
}

/**
 * A status callback, built when the transition happens (not when it is delivered): `answered` reports
 * CallStatus=in-progress, terminal events carry CallDuration and Duration (billed minutes).
 */
export function statusCallbackParams(
  call: Call,
  callStatus: CallStatus | "initiated",
  sequenceNumber: number,
  now: number,
): Record<string, string> {
  const params: Record<string, string> = {
    ...voiceParams(call, callStatus),
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
