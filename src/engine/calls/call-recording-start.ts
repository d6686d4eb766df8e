// Starting a live call's recording: asked by the call (Record=true), by a verb, or by the account API.
import type { Call } from "../../domain/call.js";
import type { Recording } from "../../domain/recording.js";
import type { RecordingHandle, RecordingStart } from "../../markup/effects.js";
import { startRecording } from "../recordings/recordings.js";
import type { ApiRecordingStart, CallRegistry } from "./call-registry.js";
import type { ActiveRecording, CallRuntime } from "./call-runtime.js";

/** Starts the recording a call asked for with Record=true. */
export function startCallRecording(reg: CallRegistry, rt: CallRuntime, call: Call): void {
  const recording = startRecording(reg.services, {
    call,
    source: "OutboundAPI",
    channels: call.recording_channels === "dual" ? 2 : 1,
    statusCallback: call.recording_status_callback,
    statusCallbackMethod: call.recording_status_callback_method,
    statusCallbackEvents: call.recording_status_callback_events,
    track: call.recording_track,
  });
  activate(rt, recording, { trim: call.recording_trim });
}

/** Starts a recording the account API asked for on a live call (Calls/{Sid}/Recordings). */
export function startApiRecording(reg: CallRegistry, rt: CallRuntime, start: ApiRecordingStart): Recording {
  const recording = startRecording(reg.services, {
    call: reg.getCall(rt.sid),
    source: "StartCallRecordingAPI",
    channels: start.channels,
    track: start.track,
    statusCallback: start.statusCallback,
    statusCallbackMethod: start.statusCallbackMethod,
    statusCallbackEvents: start.statusCallbackEvents,
  });
  // A dual recording hears the leg this call is bridged with on its second channel.
  activate(rt, recording, {
    otherLeg: rt.bridgedWith ? (reg.runtime(rt.bridgedWith) ?? null) : null,
    trim: start.trim,
  });
  reg.note(rt, "recording.start", { sid: recording.sid, source: recording.source });
  return recording;
}

/** Starts a recording a verb asked for (Record, Dial record=...). */
export function startVerbRecording(
  reg: CallRegistry,
  rt: CallRuntime,
  start: RecordingStart,
): RecordingHandle {
  const recording = startRecording(reg.services, {
    call: reg.getCall(rt.sid),
    source: start.source,
    channels: start.channels,
    statusCallback: start.statusCallback,
    statusCallbackMethod: start.statusCallbackMethod,
    statusCallbackEvents: start.statusCallbackEvents,
  });
  activate(rt, recording, {
    otherLeg: start.otherLegSid ? (reg.runtime(start.otherLegSid) ?? null) : null,
    transcribe: start.transcribe ?? null,
    trim: start.trim ?? false,
    // A Record verb's recording is the verb's to end; Twilio pauses and stops the others.
    controllable: start.source !== "RecordVerb",
  });
  reg.note(rt, "recording.start", { sid: recording.sid, source: start.source });
  return { sid: recording.sid, startedAt: recording.start_time };
}

/** The call keeps the running recording: what it hears, its pauses, whether the API may control it. */
function activate(rt: CallRuntime, recording: Recording, fields: Partial<ActiveRecording>): void {
  rt.recordings.set(recording.sid, {
    sid: recording.sid,
    startedAt: recording.start_time,
    channels: recording.channels as 1 | 2,
    otherLeg: null,
    transcribe: null,
    controllable: true,
    track: recording.track,
    trim: false,
    pauses: [],
    ...fields,
  });
}
