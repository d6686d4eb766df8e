// Recordings of live calls: started by Record=true or a verb, filled with the speech heard in their window, transcribed.
import type { SpeechSpan } from "../domain/recording.js";
import type { CallRegistry, RecordingsPart } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { discardRecording, finishRecording, startRecording } from "./recordings.js";
import { defaultSttProvider, recordVerbProvider, startTranscription } from "./transcriptions.js";

export function createCallRecordings(reg: CallRegistry): RecordingsPart {
  const { services, note } = reg;

  /** What each party said inside the window: channel 1 this leg, channel 2 the other leg (dual recordings). */
  const spansFor = (
    rt: CallRuntime,
    startedAt: number,
    endAt: number,
    otherLegSid: string | null,
  ): SpeechSpan[] => {
    const spans: SpeechSpan[] = [];
    const add = (channel: number, utterances: CallRuntime["speech"]) => {
      for (const u of utterances) {
        if (u.end <= startedAt || u.start >= endAt) continue;
        spans.push({
          channel,
          text: u.text,
          start_ms: Math.max(0, u.start - startedAt),
          end_ms: Math.min(endAt, u.end) - startedAt,
        });
      }
    };
    add(1, rt.speech);
    const other = otherLegSid ? reg.runtime(otherLegSid) : undefined;
    if (other) add(2, other.speech);
    return spans.sort((a, b) => a.start_ms - b.start_ms || a.channel - b.channel);
  };

  const end: RecordingsPart["end"] = (rt, sid, endAt) => {
    const active = rt.recordings.get(sid);
    if (!active) throw new Error(`recording ${sid} is not running`);
    rt.recordings.delete(sid);
    const recording = finishRecording(
      services,
      sid,
      endAt,
      spansFor(rt, active.startedAt, endAt, active.otherLegSid),
    );
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
      });
      rt.recordings.set(recording.sid, {
        sid: recording.sid,
        startedAt: recording.start_time,
        channels: recording.channels as 1 | 2,
        otherLegSid: null,
        transcribe: null,
      });
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
      rt.recordings.set(recording.sid, {
        sid: recording.sid,
        startedAt: recording.start_time,
        channels: start.channels,
        otherLegSid: start.otherLegSid ?? null,
        transcribe: start.transcribe ?? null,
      });
      note(rt, "recording.start", { sid: recording.sid, source: start.source });
      return { sid: recording.sid, startedAt: recording.start_time };
    },
    discard(rt, handle) {
      rt.recordings.delete(handle.sid);
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
