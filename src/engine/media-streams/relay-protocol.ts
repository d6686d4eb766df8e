// The ConversationRelay text protocol: the JSON messages the sandbox sends, and the app's messages it accepts (zod-checked).
import { z } from "zod";

/** A message's `interruptible`: a boolean (true any, false none) or which input may cut it. */
const interruptibleField = z.lazy(() =>
  z.union([z.boolean(), z.enum(["none", "dtmf", "speech", "any"])]).optional(),
);

/** What the app may send: text tokens to speak, audio to play, digits, a language change, or the end. */
export const relayAppMessageSchema = z.lazy(() =>
  z.discriminatedUnion("type", [
    z.object({
      type: z.literal("text"),
      token: z.string(),
      last: z.boolean().optional(),
      lang: z.string().optional(),
      interruptible: interruptibleField,
      preemptible: z.boolean().optional(),
    }),
    z.object({
      type: z.literal("play"),
      source: z.url({ error: "source must be an absolute URL" }),
      loop: z.number().int().min(0).optional(),
      interruptible: interruptibleField,
      preemptible: z.boolean().optional(),
    }),
    z.object({
      type: z.literal("sendDigits"),
      digits: z.string().regex(/^[0-9*#wW]+$/, "digits are 0-9, *, #, w and W"),
    }),
    z.object({
      type: z.literal("language"),
      ttsLanguage: z.string().optional(),
      transcriptionLanguage: z.string().optional(),
    }),
    z.object({ type: z.literal("end"), handoffData: z.string().optional() }),
  ]),
);
export type RelayAppMessage = z.infer<typeof relayAppMessageSchema>;

/** Reads one text frame from the app: the message, or why it is refused (sent back as an `error` message). */
export function readRelayMessage(text: string): { message: RelayAppMessage } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { error: `Invalid message received: ${text.slice(0, 200)}` };
  }
  const parsed = relayAppMessageSchema.safeParse(json);
  if (parsed.success) return { message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.join(".") || "type";
  return {
    error: `Invalid message received: ${where}: ${issue?.message ?? "invalid"}: ${text.slice(0, 200)}`,
  };
}

export interface SetupInfo {
  sessionId: string;
  accountSid: string;
  parentCallSid: string;
  callSid: string;
  from: string;
  to: string;
  forwardedFrom: string;
  callerName: string;
  direction: string;
  callStatus: string;
  customParameters: Record<string, string>;
}

/** Twilio's message shapes, field for field. */
export const relayMessages = {
  setup: (info: SetupInfo) => ({
    type: "setup",
    sessionId: info.sessionId,
    accountSid: info.accountSid,
    parentCallSid: info.parentCallSid,
    callSid: info.callSid,
    from: info.from,
    to: info.to,
    forwardedFrom: info.forwardedFrom,
    callType: "PSTN",
    callerName: info.callerName,
    direction: info.direction,
    callStatus: info.callStatus,
    customParameters: info.customParameters,
  }),
  prompt: (voicePrompt: string, lang: string) => ({ type: "prompt", voicePrompt, lang, last: true }),
  dtmf: (digit: string) => ({ type: "dtmf", digit }),
  interrupt: (utteranceUntilInterrupt: string, durationUntilInterruptMs: number) => ({
    type: "interrupt",
    utteranceUntilInterrupt,
    durationUntilInterruptMs,
  }),
  error: (description: string) => ({ type: "error", description }),
};
