// Answering machine detection on an answered call: the result at its virtual time, then the markup or the AMD callback.
import type { Call } from "../../domain/call.js";
import { callCookies } from "../callbacks/webhook-cookies.js";
import { sendCallback } from "../context/engine-services.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { saveCall } from "./calls.js";
import { defaultMachineDetection, detectAnswerer } from "./machine-detection.js";

/**
 * Starts detection on a call that asked for it (Twilio ignores MachineDetection when SendDigits is given).
 * True when the markup waits for the result (synchronous detection); false when it may start now.
 */
export function startMachineDetection(reg: CallRegistry, rt: CallRuntime, call: Call): boolean {
  const mode = call.machine_detection;
  if ((mode !== "Enable" && mode !== "DetectMessageEnd") || call.send_digits) return false;
  const options = call.machine_detection_options ?? defaultMachineDetection;
  const result = detectAnswerer(mode, options, rt.behaviour);
  reg.note(rt, "amd.start", { mode, async: options.async });
  if (options.async && !options.async_callback) {
    reg.alert(
      rt,
      21262,
      "AsyncAmd is on but no AsyncAmdStatusCallback was given: the result is only on the call resource",
      "warning",
    );
  }
  reg.timer(rt, reg.now() + result.ms, eventClass.input, "machine detection", () => {
    const { ctx } = reg.services;
    const saved = saveCall(ctx, reg.getCall(rt.sid), {
      answered_by: result.answeredBy,
      machine_detection_duration: result.ms,
    });
    reg.note(rt, "amd.result", { answeredBy: result.answeredBy, ms: result.ms });
    if (!options.async) return reg.parts.program.start(rt);
    if (!options.async_callback) return;
    sendCallback(reg.services, {
      kind: "amd-status",
      url: options.async_callback,
      method: options.async_callback_method,
      params: {
        AccountSid: saved.account_sid,
        AnsweredBy: result.answeredBy,
        CallSid: saved.sid,
        MachineDetectionDuration: String(result.ms),
      },
      accountSid: saved.account_sid,
      callSid: saved.sid,
      orderingKey: saved.parent_call_sid ?? saved.sid,
      cookies: callCookies(saved.sid),
    });
  });
  return !options.async;
}
