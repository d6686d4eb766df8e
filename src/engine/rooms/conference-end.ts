// Where a conference ends: every participant is taken out, the recording finished, the record completed.
import type { Conference, ConferenceEndReason, Participant } from "../../domain/conference.js";
import { participantId } from "../../domain/conference.js";
import { recordEvent } from "../context/events.js";
import { dropAnnouncements } from "./conference-announce.js";
import { conferenceCallback, participantParams } from "./conference-callbacks.js";
import { finishConferenceRecording } from "./conference-recording.js";
import {
  type ConferenceState,
  nowOf,
  openStay,
  participantsOf,
  roomOf,
  saveConference,
} from "./conference-room.js";
import { speechStopped } from "./conference-speech.js";

/** Why a participant leaves: its call ended, the API redirected or removed it, its Dial moved on, the room ended. */
export type LeaveHow = "hung-up" | "redirected" | "kicked" | "left" | "ended";

/** participant-leave's ReasonParticipantLeft, in Twilio's snake_case form. */
const leaveReasons: Record<LeaveHow, string> = {
  "hung-up": "participant_hung_up",
  redirected: "participant_updated_via_api",
  kicked: "participant_removed_via_api",
  left: "participant_left",
  ended: "conference_ended",
};

/** Takes one participant out of the room: its record goes, its stay closes, it stands "out". */
export function removeParticipant(
  state: ConferenceState,
  p: Participant,
  conference: Conference,
  how: LeaveHow,
) {
  const { ctx } = state.links.services;
  // Someone talking as it leaves stops talking first; what it was still to hear announced, it does not.
  speechStopped(state, conference.sid, p.call_sid);
  dropAnnouncements(state, p.call_sid);
  ctx.store.participants.delete(participantId(p));
  const stay = openStay(state, conference.sid, p.call_sid);
  if (stay) stay.to = nowOf(state);
  state.standing.set(p.call_sid, { conferenceSid: conference.sid, state: "out" });
  state.links.note(p.call_sid, "conference.leave", { sid: conference.sid });
  conferenceCallback(state, conference, "participant-leave", {
    ...participantParams(state, p),
    ParticipantCallStatus: ctx.store.calls.get(p.call_sid)?.status ?? "completed",
    ReasonParticipantLeft: leaveReasons[how],
  });
  roomOf(state, conference.sid).coaching.delete(p.call_sid);
}

/** The conference completes for `reason`; every participant's call moves on past its Dial. */
export function endConference(
  state: ConferenceState,
  conference: Conference,
  reason: ConferenceEndReason,
  endingCallSid: string | null,
): Conference {
  for (const p of participantsOf(state, conference.sid)) {
    removeParticipant(state, p, conference, "ended");
    state.links.signal(p.call_sid);
  }
  const at = nowOf(state);
  finishConferenceRecording(state, conference, at);
  const ended = saveConference(state, conference, {
    status: "completed",
    reason_conference_ended: reason,
    call_sid_ending_conference: endingCallSid,
    ended_at: at,
  });
  recordEvent(state.links.services.ctx, "conference.ended", ended.account_sid, "conference", ended);
  const extra: Record<string, string> = { ReasonConferenceEnded: reason };
  if (endingCallSid) extra.CallSidEndingConference = endingCallSid;
  conferenceCallback(state, ended, "conference-end", extra);
  return ended;
}

/** Status=completed through the API (a completed conference stays as it is). */
export function endConferenceViaApi(state: ConferenceState, conference: Conference): Conference {
  if (conference.status === "completed") return conference;
  return state.links.services.ctx.store.transact(() =>
    endConference(state, conference, "conference-ended-via-api", null),
  );
}
