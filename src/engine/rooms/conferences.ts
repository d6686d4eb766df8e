// Conferences on the clock: the room's state and its wiring; each step lives in a conference-*.ts beside it.
import type { Conference, Participant } from "../../domain/conference.js";
import type { ConferenceHost, ConferenceJoin } from "../../markup/effects.js";
import { announce, announced, heard, nextAnnouncement } from "./conference-announce.js";
import { endConferenceViaApi } from "./conference-end.js";
import { coachable, joinConference, openConference } from "./conference-join.js";
import { kickParticipant, leaveForGood } from "./conference-leave.js";
import { setCoaching, updateParticipant } from "./conference-participants.js";
import {
  type ConferenceLinks,
  type ConferenceState,
  findParticipant,
  participantsOf,
  roomOf,
} from "./conference-room.js";
import { participantSpoke } from "./conference-speech.js";

/** REST control of conferences (the account API's Conferences and Participants). */
export interface ConferenceControl {
  /** Status=completed: the conference ends and every participant's call moves on past its Dial. */
  end(conference: Conference): Conference;
  update(participant: Participant, change: { muted?: boolean; hold?: boolean }): Participant;
  /** Removes a participant; its call carries on with the Dial action or the next verb. */
  kick(participant: Participant): void;
  /** The call a participant coaches, or null. */
  coaching(participant: Participant): string | null;
  /** Coaching through the API: the participant coaches `coached` (16028 unless it is in the room), or stops (null). */
  coach(participant: Participant, coached: string | null): void;
  /** Twilio's 16028 check ahead of a coach added through the API: `coached` is in the account's running room `name`. */
  coachable(accountSid: string, name: string, coached: string): boolean;
  /** AnnounceUrl: the markup is played into the room (every participant live in it), or to `participant` alone. */
  announce(
    conference: Conference,
    input: { url: string; method: "GET" | "POST" },
    participant?: Participant,
  ): void;
  /**
   * The account's running conference of that name, or a new one (`init`) with these settings: the room a
   * participant added through the API will join once its call is answered.
   */
  open(accountSid: string, settings: ConferenceJoin): Conference;
}

export interface Conferences extends ConferenceControl {
  hostFor(callSid: string): ConferenceHost;
  /** A call ended: if it is still in a conference, it leaves. */
  callEnded(callSid: string): void;
  /** The call's party starts talking, until `end`: heard in a live room, the room's speaker callbacks say so. */
  spoke(callSid: string, end: number): void;
  reset(): void;
}

/**
 * Joining: conference-join.ts; starting: conference-start.ts; leaving: conference-leave.ts; ending:
 * conference-end.ts; mute and hold: conference-participants.ts; callbacks: conference-callbacks.ts.
 */
export function createConferences(links: ConferenceLinks): Conferences {
  const state: ConferenceState = { links, rooms: new Map(), standing: new Map(), announcements: new Map() };
  return {
    hostFor: (callSid) => ({
      join: (input) => joinConference(state, callSid, input),
      state: () => state.standing.get(callSid)?.state ?? "out",
      held: () => findParticipant(state, callSid)?.hold ?? false,
      leave: (reason) => leaveForGood(state, callSid, reason ?? "left"),
      announcement: () => nextAnnouncement(state, callSid),
      announced: (verbs) => announced(state, callSid, verbs),
      announcementDone: () => heard(state, callSid),
    }),
    callEnded: (callSid) => leaveForGood(state, callSid, "hung-up"),
    spoke: (callSid, end) => participantSpoke(state, callSid, end),
    end: (conference) => endConferenceViaApi(state, conference),
    update: (participant, change) => updateParticipant(state, participant, change),
    kick: (participant) => kickParticipant(state, participant),
    coaching: (p) => roomOf(state, p.conference_sid).coaching.get(p.call_sid) ?? null,
    coach: (participant, coached) => setCoaching(state, participant, coached),
    coachable: (accountSid, name, coached) => coachable(state, accountSid, name, coached),
    announce(conference, input, participant) {
      const live = participant
        ? [participant.call_sid]
        : participantsOf(state, conference.sid)
            .map((p) => p.call_sid)
            .filter((sid) => state.standing.get(sid)?.state === "live");
      announce(state, conference, input, live, participant?.call_sid ?? null);
    },
    open: (accountSid, settings) => openConference(state, accountSid, settings),
    reset() {
      state.rooms = new Map();
      state.standing = new Map();
      state.announcements = new Map();
    },
  };
}
