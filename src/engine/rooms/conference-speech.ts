// A participant talking in a live room: statusCallbackEvent "speaker" posts participant-speech-start and -stop.
import { eventClass } from "../time/scheduler.js";
import { conferenceCallback, participantParams } from "./conference-callbacks.js";
import { type ConferenceState, findParticipant, nowOf, roomOf } from "./conference-room.js";

/**
 * The call's party starts saying something that lasts until `end`: if it is live in a room, and heard there
 * (neither muted nor on hold), participant-speech-start goes out now and participant-speech-stop at `end`;
 * words said while it already talks only carry the stop further.
 */
export function participantSpoke(state: ConferenceState, callSid: string, end: number): void {
  const standing = state.standing.get(callSid);
  const p = findParticipant(state, callSid);
  if (standing?.state !== "live" || !p || p.muted || p.hold) return;
  const room = roomOf(state, standing.conferenceSid);
  const talking = room.speaking.get(callSid);
  if (talking !== undefined) {
    if (end > talking) room.speaking.set(callSid, end);
    return;
  }
  room.speaking.set(callSid, end);
  const conference = state.links.services.ctx.store.conferences.get(p.conference_sid)!;
  conferenceCallback(state, conference, "participant-speech-start", participantParams(state, p));
  scheduleStop(state, standing.conferenceSid, callSid, end);
}

function scheduleStop(state: ConferenceState, conferenceSid: string, callSid: string, at: number): void {
  state.links.services.scheduler.at(at, eventClass.input, `speech stop ${callSid}`, () => {
    const end = roomOf(state, conferenceSid).speaking.get(callSid);
    if (end === undefined) return;
    // Carried further by words said meanwhile: the stop waits for them.
    if (end > nowOf(state)) return scheduleStop(state, conferenceSid, callSid, end);
    speechStopped(state, conferenceSid, callSid);
  });
}

/** participant-speech-stop, if the call was talking: at the end of its words, or as it leaves the room. */
export function speechStopped(state: ConferenceState, conferenceSid: string, callSid: string): void {
  const room = roomOf(state, conferenceSid);
  if (!room.speaking.delete(callSid)) return;
  const p = findParticipant(state, callSid);
  const conference = state.links.services.ctx.store.conferences.get(conferenceSid);
  if (p && conference)
    conferenceCallback(state, conference, "participant-speech-stop", participantParams(state, p));
}
