// The recording parameters a call's create and a call recording's start share (Twilio's Recording* and Trim).
import { z } from "zod";
import { formEventList, formMethod, formUrl } from "./form-fields.js";

export const recordingStatusEvents = ["in-progress", "completed", "absent"] as const;

export const recordingParams = {
  RecordingChannels: z.enum(["mono", "dual"], { error: "must be mono or dual" }).optional(),
  RecordingStatusCallback: formUrl.optional(),
  RecordingStatusCallbackMethod: formMethod.optional(),
  RecordingStatusCallbackEvent: formEventList(recordingStatusEvents),
  RecordingTrack: z
    .enum(["inbound", "outbound", "both"], { error: "must be inbound, outbound or both" })
    .optional(),
  Trim: z.enum(["trim-silence", "do-not-trim"], { error: "must be trim-silence or do-not-trim" }).optional(),
};
