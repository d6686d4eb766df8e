// A conference's status callbacks: which events the conference asked for, numbered in the order they happened.
import type { Conference, Participant } from "../../domain/conference.js";
import { sendCallback } from "../context/engine-services.js";
import { rfc2822 } from "../time/timestamps.js";
import { type ConferenceState, nowOf, roomOf } from "./conference-room.js";

/** The callback event names `statusCallbackEvent` values stand for. */
const eventGroups: Record<string, string> = {
  "conference-start": "start",
  "conference-end": "end",
  "participant-join": "join",
  "participant-leave": "leave",
  "participant-mute": "mute",
  "participant-unmute": "mute",
  "participant-hold": "hold",
  "participant-unhold": "hold",
  "participant-speech-start": "speaker",
  "participant-speech-stop": "speaker",
  "announcement-end": "announcement",
  "announcement-failed": "announcement",
};

/** Posts `event` to the conference's status callback, if it has one and asked for that event. */
export function conferenceCallback(
  state: ConferenceState,
  conference: Conference,
  event: string,
  extra: Record<string, string> = {},
) {
  if (!conference.status_callback) return;
  if (!conference.status_callback_events.includes(eventGroups[event] ?? event)) return;
  const sequence = roomOf(state, conference.sid).sequence++;
  sendCallback(state.links.services, {
    kind: "call-status",
    url: conference.status_callback,
    method: conference.status_callback_method,
    params: {
      AccountSid: conference.account_sid,
      ConferenceSid: conference.sid,
      FriendlyName: conference.friendly_name,
      SequenceNumber: String(sequence),
      StatusCallbackEvent: event,
      Timestamp: rfc2822(nowOf(state)),
      ...extra,
    },
    accountSid: conference.account_sid,
    callSid: extra.CallSid,
    // One conference's callbacks leave in the order they happened (Twilio serialises them per conference).
    orderingKey: conference.sid,
  });
}

/** A participant's part of a participant-* callback (a coach's with the call it coaches). */
export function participantParams(state: ConferenceState, p: Participant): Record<string, string> {
  const coached = roomOf(state, p.conference_sid).coaching.get(p.call_sid);
  return {
    CallSid: p.call_sid,
    ...(coached ? { CallSidToCoach: coached } : {}),
    Coaching: String(coached !== undefined),
    EndConferenceOnExit: String(p.end_conference_on_exit),
    Hold: String(p.hold),
    Muted: String(p.muted),
    StartConferenceOnEnter: String(p.start_conference_on_enter),
  };
}
