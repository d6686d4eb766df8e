// Answering machine detection parameters as calls and conference participants take them, with Twilio's ranges and code.
import { z } from "zod";
import type { MachineDetectionOptions } from "../../domain/call.js";
import { defaultMachineDetection } from "../../engine/calls/machine-detection.js";

const wholeBetween = (min: number, max: number) =>
  z.coerce
    .number({ error: `must be a whole number between ${min} and ${max}` })
    .int(`must be a whole number between ${min} and ${max}`)
    .min(min, `must be a whole number between ${min} and ${max}`)
    .max(max, `must be a whole number between ${min} and ${max}`);

/** `MachineDetection` and its tuning parameters, in the ranges Twilio documents (error 21234 outside them). */
export const machineDetectionParams = {
  MachineDetection: z
    .enum(["Enable", "DetectMessageEnd"], { error: "must be Enable or DetectMessageEnd" })
    .optional(),
  MachineDetectionTimeout: wholeBetween(3, 59).optional(),
  MachineDetectionSpeechThreshold: wholeBetween(1000, 6000).optional(),
  MachineDetectionSpeechEndThreshold: wholeBetween(500, 5000).optional(),
  MachineDetectionSilenceTimeout: wholeBetween(2000, 10_000).optional(),
};

/** Twilio's 21234 "Invalid Machine Detection configuration value", by parameter. */
export const machineDetectionErrorCodes = Object.fromEntries(
  Object.keys(machineDetectionParams).map((name) => [name, 21234]),
) as Record<keyof typeof machineDetectionParams, number>;

type TuningInput = {
  [K in keyof typeof machineDetectionParams]?: z.output<(typeof machineDetectionParams)[K]>;
};

/** The options a call runs detection with, Twilio's defaults filled in; null when it asks for none. */
export function machineDetectionOptions(
  body: TuningInput,
  result: { async: boolean; callback: string | null | undefined; method: "GET" | "POST" | undefined },
): MachineDetectionOptions | null {
  if (!body.MachineDetection) return null;
  return {
    timeout: body.MachineDetectionTimeout ?? defaultMachineDetection.timeout,
    speech_threshold: body.MachineDetectionSpeechThreshold ?? defaultMachineDetection.speech_threshold,
    speech_end_threshold:
      body.MachineDetectionSpeechEndThreshold ?? defaultMachineDetection.speech_end_threshold,
    silence_timeout: body.MachineDetectionSilenceTimeout ?? defaultMachineDetection.silence_timeout,
    async: result.async,
    async_callback: result.callback || null,
    async_callback_method: result.method ?? "POST",
  };
}
