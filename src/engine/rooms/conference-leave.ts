// A participant leaves (hangs up, moves on, or is kicked): beeps, and the conference ends when it should.
import type { Participant } from "../../domain/conference.js";
import { endConference, type LeaveHow, removeParticipant } from "./conference-end.js";
import { beepOthers, type ConferenceState, participantsOf } from "./conference-room.js";

/** The call leaves its conference; an end-conference-on-exit participant or the last one ends it. */
export function leaveConference(state: ConferenceState, callSid: string, how: LeaveHow) {
  const { ctx } = state.links.services;
  const p = ctx.store.participants.findOne("call", callSid);
  if (!p) return;
  ctx.store.transact(() => {
    const conference = ctx.store.conferences.get(p.conference_sid)!;
    removeParticipant(state, p, conference, how);
    if (conference.status === "in-progress" && (p.beep === "true" || p.beep === "onExit")) {
      beepOthers(state, conference.sid, callSid);
    }
    const remaining = participantsOf(state, conference.sid);
    if (p.end_conference_on_exit && conference.status === "in-progress") {
      const reason =
        how === "kicked"
          ? "participant-with-end-conference-on-exit-kicked"
          : "participant-with-end-conference-on-exit-left";
      endConference(state, conference, reason, callSid);
    } else if (remaining.length === 0) {
      endConference(
        state,
        conference,
        how === "kicked" ? "last-participant-kicked" : "last-participant-left",
        callSid,
      );
    }
  });
}

/** The call is done with conferences (its Dial moved on, or it ended): it leaves and is forgotten. */
export function leaveForGood(state: ConferenceState, callSid: string, how: LeaveHow) {
  leaveConference(state, callSid, how);
  state.standing.delete(callSid);
}

/** Removed through the API: its call carries on with the Dial action or the next verb. */
export function kickParticipant(state: ConferenceState, participant: Participant) {
  leaveConference(state, participant.call_sid, "kicked");
  state.links.signal(participant.call_sid);
}
