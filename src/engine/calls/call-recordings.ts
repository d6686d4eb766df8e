// Recordings of live calls: started by Record=true, a verb or the account API, paused and resumed, filled with
// the speech heard in their window, transcribed.
import type { Recording } from "../../domain/recording.js";
import { recordEvent } from "../context/events.js";
import { type HeardSpan, recordedWindow } from "../recordings/recording-window.js";
import { discardRecording, finishRecording, startRecording } from "../recordings/recordings.js";
import { defaultSttProvider, recordVerbProvider, startTranscription } from "../recordings/transcriptions.js";
import type { CallRegistry, RecordingsPart } from "./call-registry.js";
import type { ActiveRecording, CallRuntime } from "./call-runtime.js";
import { spokenTo } from "./sandbox-speech.js";

export function createCallRecordings(reg: CallRegistry): RecordingsPart {
  const { services, note } = reg;
  const { ctx } = services;

  /** What was said while the recording ran: channel 1 this leg's party, channel 2 what it heard, as its track hears. */
  const heardBy = (rt: CallRuntime, active: ActiveRecording): HeardSpan[] => {
    const heard: HeardSpan[] = [];
    const add = (channel: number, utterances: CallRuntime["speech"]) => {
      for (const u of utterances) heard.push({ channel, text: u.text, start: u.start, end: u.end });
    };
    if (active.track !== "outbound") add(1, rt.speech);
    if (active.track === "inbound") return heard;
    // The second channel is what the party hears: the other leg's party, and what the sandbox or app says.
    if (active.otherLeg) add(2, active.otherLeg.speech);
    add(2, spokenTo(rt.heard));
    for (const piece of rt.played) {
      heard.push({
        channel: 2,
        text: "",
        start: piece.start,
        end: piece.end,
        audio: Buffer.concat(piece.chunks),
      });
    }
    return heard;
  };

  const activate = (rt: CallRuntime, recording: Recording, fields: Partial<ActiveRecording>) => {
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
  };

  /** Stores a running recording's new status (paused or in-progress again), with its event. */
  const setStatus = (sid: string, status: "paused" | "in-progress"): Recording => {
    const current = ctx.store.recordings.get(sid);
    if (!current) throw new Error(`no recording ${sid}`);
    const changed = ctx.store.recordings.replace({ ...current, status, updated_at: ctx.clock.now() });
    const type = status === "paused" ? "recording.paused" : "recording.resumed";
    recordEvent(ctx, type, changed.account_sid, "recording", changed);
    return changed;
  };

  const end: RecordingsPart["end"] = (rt, sid, endAt) => {
    const active = rt.recordings.get(sid);
    if (!active) {
      const ended = ctx.store.recordings.get(sid);
      if (ended) return ended;
      throw new Error(`recording ${sid} is not running`);
    }
    rt.recordings.delete(sid);
    const window = recordedWindow(heardBy(rt, active), active.startedAt, endAt, active.pauses, active.trim);
    const recording = finishRecording(services, sid, endAt, window.speech, window.lengthMs);
    const provider = defaultSttProvider(services, recording.account_sid);
    if (active.transcribe || provider) {
      startTranscription(services, reg.transcriptions, recording, {
        provider: active.transcribe ? recordVerbProvider : provider!,
        callback: active.transcribe?.callback ?? null,
        limited: active.transcribe !== null,
      });
    }
    return recording;
  };

  return {
    startCallRecording(rt, call) {
      const recording = startRecording(services, {
        call,
        source: "OutboundAPI",
        channels: call.recording_channels === "dual" ? 2 : 1,
        statusCallback: call.recording_status_callback,
        statusCallbackMethod: call.recording_status_callback_method,
        statusCallbackEvents: call.recording_status_callback_events,
        track: call.recording_track,
      });
      activate(rt, recording, { trim: call.recording_trim });
    },
    startFromApi(rt, start) {
      const recording = startRecording(services, {
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
      note(rt, "recording.start", { sid: recording.sid, source: recording.source });
      return recording;
    },
    start(rt, start) {
      const recording = startRecording(services, {
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
        // A Record verb's recording is the verb's to end; Twilio pauses and stops the others.
        controllable: start.source !== "RecordVerb",
      });
      note(rt, "recording.start", { sid: recording.sid, source: start.source });
      return { sid: recording.sid, startedAt: recording.start_time };
    },
    pause(rt, sid, skip) {
      const active = rt.recordings.get(sid);
      if (!active) throw new Error(`recording ${sid} is not running`);
      if (active.pauses.at(-1)?.to === null) return ctx.store.recordings.get(sid)!;
      active.pauses.push({ from: reg.now(), to: null, skip });
      note(rt, "recording.pause", { sid, behavior: skip ? "skip" : "silence" });
      return setStatus(sid, "paused");
    },
    resume(rt, sid) {
      const active = rt.recordings.get(sid);
      if (!active) throw new Error(`recording ${sid} is not running`);
      const open = active.pauses.at(-1);
      if (!open || open.to !== null) return ctx.store.recordings.get(sid)!;
      open.to = reg.now();
      note(rt, "recording.resume", { sid });
      return setStatus(sid, "in-progress");
    },
    discard(rt, handle) {
      // A recording the account API stopped already is complete: it stays.
      if (!rt.recordings.delete(handle.sid)) return;
      discardRecording(services, handle.sid);
    },
    end,
    finishConference(sid, endAt, speech) {
      const recording = finishRecording(services, sid, endAt, speech);
      const provider = defaultSttProvider(services, recording.account_sid);
      if (provider)
        startTranscription(services, reg.transcriptions, recording, {
          provider,
          callback: null,
          limited: false,
        });
      return recording;
    },
  };
}
