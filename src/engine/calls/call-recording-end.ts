// Ending a recording: the speech heard in its window, the stored recording completed, its transcription started.
import type { Recording, SpeechSpan } from "../../domain/recording.js";
import { type HeardSpan, recordedWindow } from "../recordings/recording-window.js";
import { finishRecording } from "../recordings/recordings.js";
import { defaultSttProvider, recordVerbProvider, startTranscription } from "../recordings/transcriptions.js";
import type { CallRegistry } from "./call-registry.js";
import type { ActiveRecording, CallRuntime, PlayedAudio } from "./call-runtime.js";
import { spokenTo } from "./sandbox-speech.js";

/**
 * Ends a running recording with the speech heard in its window, and starts its transcription. A recording
 * already ended (stopped through the API while its verb ran) is returned as it is.
 */
export function endCallRecording(reg: CallRegistry, rt: CallRuntime, sid: string, endAt: number): Recording {
  const { services } = reg;
  const active = rt.recordings.get(sid);
  if (!active) {
    const ended = services.ctx.store.recordings.get(sid);
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
}

/** Completes a conference's recording with its speech. */
export function finishConferenceRecording(
  reg: CallRegistry,
  sid: string,
  endAt: number,
  speech: SpeechSpan[],
): Recording {
  const { services } = reg;
  const recording = finishRecording(services, sid, endAt, speech);
  const provider = defaultSttProvider(services, recording.account_sid);
  if (provider)
    startTranscription(services, reg.transcriptions, recording, {
      provider,
      callback: null,
      limited: false,
    });
  return recording;
}

/** What was said while the recording ran: channel 1 this leg's party, channel 2 what it heard, as its track hears. */
function heardBy(rt: CallRuntime, active: ActiveRecording): HeardSpan[] {
  const heard: HeardSpan[] = [];
  const add = (channel: number, utterances: CallRuntime["speech"]) => {
    for (const u of utterances) heard.push({ channel, text: u.text, start: u.start, end: u.end });
  };
  if (active.track !== "outbound") {
    add(1, rt.speech);
    // The party's live audio (a browser phone's microphone) is kept as it was said.
    for (const piece of rt.mic) heard.push(audioSpan(1, piece));
  }
  if (active.track === "inbound") return heard;
  // The second channel is what the party hears: the other leg's party, and what the sandbox or app says.
  if (active.otherLeg) {
    add(2, active.otherLeg.speech);
    for (const piece of active.otherLeg.mic) heard.push(audioSpan(2, piece));
  }
  add(2, spokenTo(rt.heard));
  for (const piece of rt.played) heard.push(audioSpan(2, piece));
  return heard;
}

const audioSpan = (channel: number, piece: PlayedAudio): HeardSpan => ({
  channel,
  text: "",
  start: piece.start,
  end: piece.end,
  audio: Buffer.concat(piece.chunks),
});
