// A conference's own recording (record-from-start): started with the room, finished with the room's speech.
import type { Conference } from "../../domain/conference.js";
import type { Recording, SpeechSpan } from "../../domain/recording.js";
import { startRecording } from "../recordings/recordings.js";
import { type ConferenceState, type LiveAudio, roomOf, saveConference } from "./conference-room.js";

/** record-from-start: one mono recording of the room, from start to end, belonging to the first caller. */
export function startConferenceRecording(state: ConferenceState, started: Conference): Conference {
  const { ctx } = state.links.services;
  const first = ctx.store.participants.where("conference", started.sid)[0];
  const call = first ? ctx.store.calls.get(first.call_sid) : undefined;
  if (!call) return started;
  const recording = startRecording(state.links.services, {
    call,
    source: "Conference",
    channels: 1,
    conferenceSid: started.sid,
    statusCallback: started.recording_status_callback,
    statusCallbackMethod: started.recording_status_callback_method,
    statusCallbackEvents: started.recording_status_callback_events,
  });
  return saveConference(state, started, { recording_sid: recording.sid });
}

/** The conference ends at `at`: its recording, if still running, is completed with what was said in the room. */
export function finishConferenceRecording(state: ConferenceState, conference: Conference, at: number) {
  if (!conference.recording_sid) return;
  const recording = state.links.services.ctx.store.recordings.get(conference.recording_sid);
  if (recording && recording.status === "in-progress") {
    state.links.finishRecording(recording.sid, at, roomSpeech(state, conference, recording, at));
  }
}

/** What the participants said while the recording ran and they were in the room, live audio included; one channel per caller (at most 2). */
function roomSpeech(
  state: ConferenceState,
  conference: Conference,
  recording: Recording,
  endAt: number,
): SpeechSpan[] {
  const room = roomOf(state, conference.sid);
  const order: string[] = [];
  const spans: SpeechSpan[] = [];
  for (const stay of room.presence) {
    if (!order.includes(stay.callSid)) order.push(stay.callSid);
    const from = Math.max(stay.from, recording.start_time);
    const to = Math.min(stay.to ?? endAt, endAt);
    const silenced = (at: number) => stay.silenced.some((q) => at >= q.from && at < (q.to ?? Infinity));
    const channel = Math.min(order.indexOf(stay.callSid) + 1, 2);
    for (const u of stay.speech) {
      if (u.end <= from || u.start >= to || silenced(u.start)) continue;
      spans.push({
        channel,
        text: u.text,
        start_ms: Math.max(u.start, from) - recording.start_time,
        end_ms: Math.min(u.end, to) - recording.start_time,
      });
    }
    for (const piece of stay.liveAudio) {
      const span = liveSpan(piece, from, to, recording.start_time);
      if (span && !silenced(piece.start)) spans.push({ channel, ...span });
    }
  }
  return spans.sort((a, b) => a.start_ms - b.start_ms || a.channel - b.channel);
}

/** The part of a stretch of live audio between `from` and `to` (clock times) as a recording's span, or null when none is. */
function liveSpan(piece: LiveAudio, from: number, to: number, startTime: number) {
  const start = Math.round(Math.max(piece.start, from));
  const end = Math.round(Math.min(piece.end, to));
  if (end <= start) return null;
  const bytes = Buffer.concat(piece.chunks).subarray((start - piece.start) * 8, (end - piece.start) * 8);
  return { text: "", start_ms: start - startTime, end_ms: end - startTime, audio: bytes.toString("base64") };
}
