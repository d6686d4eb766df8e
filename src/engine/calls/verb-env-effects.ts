// Engine effects verbs reach through their environment that do more than pass the call on: TTS usage, recording
// ends, partial results, SMS, answering, streams and legs stopped.
import { isTerminalCallStatus } from "../../domain/call.js";
import type { Message } from "../../domain/message.js";
import type { RecordingHandle, VerbEnv } from "../../markup/effects.js";
import { recordTtsEvent } from "../billing/tts-events.js";
import { voiceParams } from "../callbacks/voice-params.js";
import { callCookies } from "../callbacks/webhook-cookies.js";
import { sendCallback } from "../context/engine-services.js";
import { sendMessageOrFail } from "../messaging/messages.js";
import { recordingUrl } from "../recordings/recordings.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";

/** Said text is billed as TTS usage, in the account's default voice when the verb names none. */
export function tts(reg: CallRegistry, rt: CallRuntime, text: string, voice: string): void {
  const { ctx } = reg.services;
  const call = reg.getCall(rt.sid);
  const account = ctx.store.accounts.get(call.account_sid);
  recordTtsEvent(ctx, {
    accountSid: call.account_sid,
    callSid: call.sid,
    voice: voice || account?.default_tts_voice || "Basic.Kal",
    characters: [...text].length,
    ratedNumber: call.direction === "inbound" ? call.to : call.from,
  });
}

/** The first verb other than `<Reject>` answers an inbound call still ringing. */
export function answer(reg: CallRegistry, rt: CallRuntime): void {
  const call = reg.getCall(rt.sid);
  if (call.direction === "inbound" && call.answered_at === null && !isTerminalCallStatus(call.status)) {
    reg.parts.lifecycle.applyEvent(rt.sid, "answer");
  }
}

/** A verb's recording ends: what the verb reports of it (its action's RecordingUrl and duration). */
export function finishVerbRecording(
  reg: CallRegistry,
  rt: CallRuntime,
  handle: RecordingHandle,
  endAt: number,
): ReturnType<VerbEnv["finishRecording"]> {
  const recording = reg.parts.recordings.end(rt, handle.sid, endAt);
  reg.note(rt, "recording.end", { sid: recording.sid, duration: recording.duration });
  return {
    sid: recording.sid,
    duration: recording.duration ?? 0,
    url: recordingUrl(reg.services, recording),
  };
}

/** A Gather's partialResultCallback: what was recognised so far, with the call's parameters. */
export function sendPartialResult(
  reg: CallRegistry,
  rt: CallRuntime,
  url: string,
  method: "GET" | "POST",
  params: Record<string, string>,
): void {
  const call = reg.getCall(rt.sid);
  sendCallback(reg.services, {
    kind: "partial-result",
    url,
    method,
    params: { ...voiceParams(reg.services.ctx.store, call), ...params },
    accountSid: call.account_sid,
    callSid: call.sid,
    orderingKey: call.parent_call_sid ?? call.sid,
    cookies: callCookies(call.sid),
  });
}

/**
 * `<Sms>`: the message is stored from the call's account and starts its delivery; its sid, and `failed` when
 * the wallet could not cover it (stored failed with 20042; the call goes on).
 */
export function sendSmsFromCall(
  reg: CallRegistry,
  startMessage: (message: Message) => void,
  rt: CallRuntime,
  input: Parameters<VerbEnv["sendSms"]>[0],
): ReturnType<VerbEnv["sendSms"]> {
  const message = sendMessageOrFail(reg.services.ctx, {
    accountSid: reg.getCall(rt.sid).account_sid,
    ...input,
    direction: "outbound-call",
  });
  startMessage(message);
  return { sid: message.sid, status: message.status === "failed" ? "failed" : "sending" };
}

/** `<Stop><Stream>`: the named stream, or every stream of the call when no name is given. */
export function stopStreams(reg: CallRegistry, rt: CallRuntime, name: string | null): boolean {
  if (name !== null) return reg.parts.streams.stop(rt.sid, name) !== undefined;
  reg.parts.streams.stopAll(rt.sid);
  return true;
}

/** A Dial leg no longer wanted ends: canceled while ringing, hung up once answered. */
export function endLeg(reg: CallRegistry, sid: string): void {
  const child = reg.services.ctx.store.calls.get(sid);
  if (!child || isTerminalCallStatus(child.status)) return;
  reg.parts.lifecycle.applyEvent(sid, child.status === "in-progress" ? "hangup" : "cancel");
}
