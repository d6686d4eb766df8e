// Call recording control from the account API: start recording a live call, pause, resume and stop a recording.
import { errors } from "../../domain/errors.js";
import type { Recording } from "../../domain/recording.js";
import type { ApiRecordingStart, CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";

/** Twilio's name for "the call's recording that runs now", usable instead of a recording sid. */
export const currentRecording = "Twilio.CURRENT";

export interface RecordingChange {
  status: "paused" | "in-progress" | "stopped";
  /** Only for `paused`: leave the pause out of the audio (`skip`) or keep it as silence (the default). */
  pauseBehavior?: "skip" | "silence" | undefined;
}

export interface CallRecordingControl {
  /** Starts recording a call in progress now (Twilio 21220 for any other call); the new recording. */
  start(callSid: string, start: ApiRecordingStart): Recording;
  /**
   * Pauses, resumes or stops one of the call's recordings (`Twilio.CURRENT`: the one started last that
   * still runs). One recording resource lasts across pauses; stopping completes it at once.
   */
  update(callSid: string, recordingSid: string, change: RecordingChange): Recording;
}

export function createCallRecordingControl(reg: CallRegistry): CallRecordingControl {
  const { ctx } = reg.services;

  /** The runtime of a call in progress that the engine drives, or Twilio's 21220. */
  const liveRuntime = (callSid: string): CallRuntime => {
    const call = reg.getCall(callSid);
    const rt = reg.runtime(callSid);
    if (call.status !== "in-progress" || !rt || rt.finishing)
      throw errors.callNotLive(
        callSid,
        call.status,
        "a recording can be started only on an answered call that has not ended",
      );
    return rt;
  };

  /** The recording the request names, if it runs on this call and the API may change it. */
  const controllable = (callSid: string, recordingSid: string) => {
    const rt = reg.runtime(callSid);
    if (recordingSid === currentRecording) {
      const running = rt && !rt.finishing ? [...rt.recordings.values()].filter((r) => r.controllable) : [];
      const latest = running.at(-1);
      if (!rt || !latest) throw errors.notFound(`Calls/${callSid}/Recordings/${currentRecording}`);
      return { rt, sid: latest.sid };
    }
    const active = rt?.recordings.get(recordingSid);
    if (!rt || !active) {
      const status = ctx.store.recordings.get(recordingSid)?.status ?? "gone";
      throw errors.recordingNotLive(recordingSid, `is ${status}`);
    }
    if (!active.controllable) throw errors.recordingNotLive(recordingSid, "belongs to a Record verb");
    return { rt, sid: recordingSid };
  };

  return {
    start(callSid, start) {
      const rt = liveRuntime(callSid);
      return ctx.store.transact(() => reg.parts.recordings.startFromApi(rt, start));
    },
    update(callSid, recordingSid, change) {
      const { rt, sid } = controllable(callSid, recordingSid);
      return ctx.store.transact(() => {
        const { recordings } = reg.parts;
        if (change.status === "paused") return recordings.pause(rt, sid, change.pauseBehavior === "skip");
        if (change.status === "in-progress") return recordings.resume(rt, sid);
        const stopped = recordings.end(rt, sid, reg.now());
        reg.note(rt, "recording.end", { sid, duration: stopped.duration });
        return stopped;
      });
    },
  };
}
