// Records the engine would make (calls that ended, recordings, transcriptions, conferences, queues), put straight in the store.
import type { Call } from "../../src/domain/call.js";
import type { Conference, Participant } from "../../src/domain/conference.js";
import type { Queue, QueueMember } from "../../src/domain/queue.js";
import type { Recording, SpeechSpan } from "../../src/domain/recording.js";
import type { Transcription, TranscriptionSegment } from "../../src/domain/transcription.js";
import type { Sandbox } from "../../src/index.js";
import { fixtures } from "./fixtures.js";

/** A call as the lifecycle would leave it, e.g. `{ status: "completed" }`. */
export function insertCall(sandbox: Sandbox, changes: Partial<Call> = {}): Call {
  const now = sandbox.clock.now();
  return sandbox.store.calls.insert({
    sid: sandbox.engine.ids.mint("CA"),
    account_sid: fixtures.acme.sid,
    parent_call_sid: null,
    direction: "outbound-api",
    from: fixtures.acme.mainNumber,
    to: "+15558675310",
    status: "completed",
    phone_number_sid: null,
    caller_name: null,
    forwarded_from: null,
    url: "https://app.example.com/voice",
    method: "POST",
    twiml: null,
    fallback_url: null,
    fallback_method: "POST",
    status_callback: null,
    status_callback_method: "POST",
    status_callback_events: ["completed"],
    timeout: 60,
    time_limit: 14_400,
    record: false,
    recording_channels: "mono",
    recording_status_callback: null,
    recording_status_callback_method: "POST",
    recording_status_callback_events: ["completed"],
    recording_track: "both",
    recording_trim: false,
    send_digits: null,
    machine_detection: null,
    machine_detection_options: null,
    machine_detection_duration: null,
    answered_by: null,
    trunk_sid: null,
    annotation: null,
    group_sid: null,
    start_time: now,
    answered_at: now,
    end_time: now + 42_000,
    duration: 42,
    price: "-0.01300",
    price_unit: "USD",
    created_at: now,
    updated_at: now,
    ...changes,
  });
}

export const sampleSpeech: SpeechSpan[] = [
  { channel: 1, text: "Hello, I need help with my order.", start_ms: 500, end_ms: 2500 },
  { channel: 2, text: "Sure, what is the order number?", start_ms: 3000, end_ms: 5000 },
];

export function insertRecording(sandbox: Sandbox, call: Call, changes: Partial<Recording> = {}): Recording {
  const now = sandbox.clock.now();
  return sandbox.store.recordings.insert({
    sid: sandbox.engine.ids.mint("RE"),
    account_sid: call.account_sid,
    call_sid: call.sid,
    conference_sid: null,
    source: "DialVerb",
    channels: 2,
    track: "both",
    status: "completed",
    start_time: now,
    duration: 6,
    speech: sampleSpeech,
    price: "-0.00250",
    price_unit: "USD",
    error_code: null,
    status_callback: null,
    status_callback_method: "POST",
    status_callback_events: ["completed"],
    created_at: now,
    updated_at: now,
    ...changes,
  });
}

export const sampleSegments: TranscriptionSegment[] = [
  { speaker: "customer", text: "Hello, I need help with my order.", start_time: 0.5, end_time: 2.5 },
  { speaker: "agent", text: "Sure, what is the order number?", start_time: 3, end_time: 5 },
];

export function insertTranscription(
  sandbox: Sandbox,
  recording: Recording,
  changes: Partial<Transcription> = {},
): Transcription {
  const now = sandbox.clock.now();
  return sandbox.store.transcriptions.insert({
    sid: sandbox.engine.ids.mint("TR"),
    account_sid: recording.account_sid,
    recording_sid: recording.sid,
    call_sid: recording.call_sid,
    status: "completed",
    text: sampleSegments.map((s) => s.text).join("\n"),
    segments: sampleSegments,
    provider: "sandbox-stt",
    language: "en-US",
    duration: recording.duration,
    price: "0.05",
    price_unit: "USD",
    callback_url: null,
    callback_method: "POST",
    created_at: now,
    updated_at: now,
    ...changes,
  });
}

/** A conference in progress, named "room", not recording unless `changes` say so. */
export function insertConference(sandbox: Sandbox, changes: Partial<Conference> = {}): Conference {
  const now = sandbox.clock.now();
  return sandbox.store.conferences.insert({
    sid: sandbox.engine.ids.mint("CF"),
    account_sid: fixtures.acme.sid,
    friendly_name: "room",
    status: "in-progress",
    region: "us1",
    reason_conference_ended: null,
    call_sid_ending_conference: null,
    record: false,
    status_callback: null,
    status_callback_method: "POST",
    status_callback_events: [],
    recording_status_callback: null,
    recording_status_callback_method: "POST",
    recording_status_callback_events: [],
    recording_sid: null,
    started_at: now,
    ended_at: null,
    created_at: now,
    updated_at: now,
    ...changes,
  });
}

/** The call connected in the conference, neither muted nor held unless `changes` say so. */
export function insertParticipant(
  sandbox: Sandbox,
  conference: Conference,
  callSid: string,
  changes: Partial<Participant> = {},
): Participant {
  const now = sandbox.clock.now();
  return sandbox.store.participants.insert({
    account_sid: conference.account_sid,
    conference_sid: conference.sid,
    call_sid: callSid,
    label: null,
    muted: false,
    hold: false,
    start_conference_on_enter: true,
    end_conference_on_exit: false,
    beep: "true",
    status: "connected",
    created_at: now,
    updated_at: now,
    ...changes,
  });
}

export function insertQueue(sandbox: Sandbox, friendlyName: string): Queue {
  const now = sandbox.clock.now();
  return sandbox.store.queues.insert({
    sid: sandbox.engine.ids.mint("QU"),
    account_sid: fixtures.acme.sid,
    friendly_name: friendlyName,
    max_size: 100,
    created_at: now,
    updated_at: now,
  });
}

/** The call waiting in the queue since now. */
export function insertQueueMember(sandbox: Sandbox, queue: Queue, callSid: string): QueueMember {
  return sandbox.store.queueMembers.insert({
    call_sid: callSid,
    queue_sid: queue.sid,
    account_sid: queue.account_sid,
    enqueued_at: sandbox.clock.now(),
  });
}
