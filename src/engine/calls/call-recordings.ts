// Recordings of live calls: started (call-recording-start.ts), paused and resumed, dropped, ended (call-recording-end.ts).
import type { Recording } from "../../domain/recording.js";
import type { RecordingHandle } from "../../markup/effects.js";
import { recordEvent } from "../context/events.js";
import { discardRecording } from "../recordings/recordings.js";
import { endCallRecording, finishConferenceRecording } from "./call-recording-end.js";
import { startApiRecording, startCallRecording, startVerbRecording } from "./call-recording-start.js";
import type { CallRegistry, RecordingsPart } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";

export function createCallRecordings(reg: CallRegistry): RecordingsPart {
  return {
    startCallRecording: (rt, call) => startCallRecording(reg, rt, call),
    startFromApi: (rt, start) => startApiRecording(reg, rt, start),
    start: (rt, start) => startVerbRecording(reg, rt, start),
    pause: (rt, sid, skip) => pauseRecording(reg, rt, sid, skip),
    resume: (rt, sid) => resumeRecording(reg, rt, sid),
    discard: (rt, handle) => discardCallRecording(reg, rt, handle),
    end: (rt, sid, endAt) => endCallRecording(reg, rt, sid, endAt),
    finishConference: (sid, endAt, speech) => finishConferenceRecording(reg, sid, endAt, speech),
  };
}

/** Pauses a running recording now (`skip`: the pause is left out of the audio instead of silent). */
function pauseRecording(reg: CallRegistry, rt: CallRuntime, sid: string, skip: boolean): Recording {
  const active = rt.recordings.get(sid);
  if (!active) throw new Error(`recording ${sid} is not running`);
  if (active.pauses.at(-1)?.to === null) return reg.services.ctx.store.recordings.get(sid)!;
  active.pauses.push({ from: reg.now(), to: null, skip });
  reg.note(rt, "recording.pause", { sid, behavior: skip ? "skip" : "silence" });
  return setStatus(reg, sid, "paused");
}

/** Resumes a paused recording now. */
function resumeRecording(reg: CallRegistry, rt: CallRuntime, sid: string): Recording {
  const active = rt.recordings.get(sid);
  if (!active) throw new Error(`recording ${sid} is not running`);
  const open = active.pauses.at(-1);
  if (!open || open.to !== null) return reg.services.ctx.store.recordings.get(sid)!;
  open.to = reg.now();
  reg.note(rt, "recording.resume", { sid });
  return setStatus(reg, sid, "in-progress");
}

/** Stores a running recording's new status (paused or in-progress again), with its event. */
function setStatus(reg: CallRegistry, sid: string, status: "paused" | "in-progress"): Recording {
  const { ctx } = reg.services;
  const current = ctx.store.recordings.get(sid);
  if (!current) throw new Error(`no recording ${sid}`);
  const changed = ctx.store.recordings.replace({ ...current, status, updated_at: ctx.clock.now() });
  const type = status === "paused" ? "recording.paused" : "recording.resumed";
  recordEvent(ctx, type, changed.account_sid, "recording", changed);
  return changed;
}

/** Drops a recording that captured nothing (an empty Record, an unanswered Dial); one already stopped stays. */
function discardCallRecording(reg: CallRegistry, rt: CallRuntime, handle: RecordingHandle): void {
  // A recording the account API stopped already is complete: it stays.
  if (!rt.recordings.delete(handle.sid)) return;
  discardRecording(reg.services, handle.sid);
}
