// A participant muted, unmuted, held or unheld through the API: its silences, its call and the callbacks.
import type { Participant } from "../../domain/conference.js";
import { errors } from "../../domain/errors.js";
import { conferenceCallback, participantParams } from "./conference-callbacks.js";
import {
  type ConferenceState,
  findParticipant,
  hearChanged,
  nowOf,
  roomOf,
  unheard,
} from "./conference-room.js";

/** The callback event a change of `key` to `value` stands for. */
const changeEvent = (key: "muted" | "hold", value: boolean) =>
  key === "muted"
    ? value
      ? "participant-mute"
      : "participant-unmute"
    : value
      ? "participant-hold"
      : "participant-unhold";

/** Applies muted, then hold; each real change silences (or unsilences) the caller and is announced. */
export function updateParticipant(
  state: ConferenceState,
  participant: Participant,
  change: { muted?: boolean; hold?: boolean },
): Participant {
  const { links } = state;
  const { ctx } = links.services;
  return ctx.store.transact(() => {
    let current = findParticipant(state, participant.call_sid) ?? participant;
    const conference = ctx.store.conferences.get(current.conference_sid)!;
    for (const key of ["muted", "hold"] as const) {
      const value = change[key];
      if (value === undefined || value === current[key]) continue;
      const wasSilent = unheard(state, current);
      current = ctx.store.participants.replace({ ...current, [key]: value, updated_at: nowOf(state) });
      hearChanged(state, wasSilent, current);
      const event = changeEvent(key, value);
      links.note(current.call_sid, `conference.${event}`, { sid: conference.sid });
      if (key === "hold") links.signal(current.call_sid);
      conferenceCallback(state, conference, event, participantParams(state, current));
    }
    return current;
  });
}

/**
 * The participant coaches `coached` (heard by it alone), or stops coaching (null). Twilio's 16028 when the
 * call to coach is not in the room while it is in progress: "Participant to be whispered is not present".
 */
export function setCoaching(state: ConferenceState, participant: Participant, coached: string | null): void {
  const { ctx } = state.links.services;
  const conference = ctx.store.conferences.get(participant.conference_sid)!;
  const room = roomOf(state, conference.sid);
  if (coached !== null) {
    const target = ctx.store.participants.findOne("call", coached);
    if (
      conference.status !== "in-progress" ||
      target?.conference_sid !== conference.sid ||
      coached === participant.call_sid
    ) {
      throw errors.invalidParameter(
        "CallSidToCoach",
        `Participant to be whispered is not present in the conference: ${coached} is not a call connected to conference ${conference.sid} while it is in progress.`,
        16028,
      );
    }
  }
  const before = unheard(state, participant);
  if (coached === null) room.coaching.delete(participant.call_sid);
  else room.coaching.set(participant.call_sid, coached);
  hearChanged(state, before, participant);
  state.links.note(participant.call_sid, "conference.coaching", { sid: conference.sid, coached });
}
