// Participant create's parameters: the call to place, and the `<Conference>` options its leg joins with.
import { z } from "zod";
import { callStatusEvents } from "../../domain/call.js";
import { errors } from "../../domain/errors.js";
import { formBoolean, formE164, formMethod, formUrl, repeated, seconds } from "./form-fields.js";
import { machineDetectionParams } from "./machine-detection-params.js";

/** CallSidToCoach: the sid of a call in the conference. */
export const callSidToCoach = z.lazy(() =>
  z.string().regex(/^CA[0-9a-fA-F]{32}$/, "must be a call sid (CA and 32 hex digits)"),
);

const conferenceCallbackEvent = z.lazy(() =>
  z.enum(["start", "end", "join", "leave", "mute", "hold", "modify", "speaker"], {
    error: "must be start, end, join, leave, mute, hold, modify or speaker",
  }),
);

/** Twilio's Participant create: the call to place, and the `<Conference>` options its leg joins with. */
export const participantCreate = z.lazy(() =>
  z.object({
    From: z.string({ error: "is required" }).pipe(formE164),
    To: z.string({ error: "is required" }).pipe(formE164),
    Label: z.string().min(1).max(128, "must be at most 128 characters").optional(),
    StatusCallback: formUrl.optional(),
    StatusCallbackMethod: formMethod.optional(),
    StatusCallbackEvent: repeated(
      z.enum(callStatusEvents, { error: `must be one of ${callStatusEvents.join(", ")}` }),
    ),
    Timeout: seconds().min(5, "must be between 5 and 600").max(600, "must be between 5 and 600").optional(),
    TimeLimit: seconds()
      .min(1, "must be between 1 and 86400")
      .max(86_400, "must be between 1 and 86400")
      .optional(),
    Record: formBoolean.optional(),
    Muted: formBoolean.optional(),
    Beep: z
      .enum(["true", "false", "onEnter", "onExit"], { error: "must be true, false, onEnter or onExit" })
      .optional(),
    StartConferenceOnEnter: formBoolean.optional(),
    EndConferenceOnExit: formBoolean.optional(),
    WaitUrl: z.union([z.literal(""), formUrl]).optional(),
    WaitMethod: formMethod.optional(),
    EarlyMedia: formBoolean.optional(),
    MaxParticipants: z.coerce
      .number({ error: "must be a whole number from 2 to 250" })
      .int("must be a whole number from 2 to 250")
      .min(2, "must be a whole number from 2 to 250")
      .max(250, "must be a whole number from 2 to 250")
      .optional(),
    ConferenceRecord: z
      .enum(["true", "false", "record-from-start", "do-not-record"], {
        error: "must be true, false, record-from-start or do-not-record",
      })
      .optional(),
    ConferenceStatusCallback: formUrl.optional(),
    ConferenceStatusCallbackMethod: formMethod.optional(),
    ConferenceStatusCallbackEvent: repeated(conferenceCallbackEvent),
    ConferenceRecordingStatusCallback: formUrl.optional(),
    ConferenceRecordingStatusCallbackMethod: formMethod.optional(),
    ...machineDetectionParams,
    AmdStatusCallback: formUrl.optional(),
    AmdStatusCallbackMethod: formMethod.optional(),
    Coaching: formBoolean.optional(),
    CallSidToCoach: callSidToCoach.optional(),
  }),
);

/**
 * The call a participant is to coach: Twilio's Coaching "defaults to `false` unless `call_sid_to_coach` is
 * defined. If `true`, `call_sid_to_coach` must be defined"; null when it coaches nobody.
 */
export function coachedCall(body: { Coaching?: boolean | undefined; CallSidToCoach?: string | undefined }) {
  if (body.Coaching === true && body.CallSidToCoach === undefined) {
    throw errors.invalidParameter("CallSidToCoach", "CallSidToCoach is required when Coaching is true.");
  }
  return body.Coaching === false ? null : (body.CallSidToCoach ?? null);
}

/** The `<Conference>` attributes a participant's options stand for (markup/verbs/dial-conference.ts reads them). */
export function conferenceAttributes(
  body: z.output<typeof participantCreate>,
): Record<string, string | undefined> {
  const bool = (value: boolean | undefined) => (value === undefined ? undefined : String(value));
  const record = body.ConferenceRecord;
  return {
    participantLabel: body.Label,
    muted: bool(body.Muted),
    beep: body.Beep,
    startConferenceOnEnter: bool(body.StartConferenceOnEnter),
    endConferenceOnExit: bool(body.EndConferenceOnExit),
    waitUrl: body.WaitUrl ?? undefined,
    waitMethod: body.WaitMethod,
    maxParticipants: body.MaxParticipants === undefined ? undefined : String(body.MaxParticipants),
    record:
      record === undefined
        ? undefined
        : record === "true" || record === "record-from-start"
          ? "record-from-start"
          : "do-not-record",
    statusCallback: body.ConferenceStatusCallback ?? undefined,
    statusCallbackMethod: body.ConferenceStatusCallbackMethod,
    statusCallbackEvent: body.ConferenceStatusCallbackEvent?.join(" "),
    recordingStatusCallback: body.ConferenceRecordingStatusCallback ?? undefined,
    recordingStatusCallbackMethod: body.ConferenceRecordingStatusCallbackMethod,
    coach: coachedCall(body) ?? undefined,
  };
}
