// A participant muted, unmuted, held or unheld through the API: its silences, its call and the callbacks.
import type { Participant } from "../../domain/conference.js";
import { conferenceCallback, participantParams } from "./conference-callbacks.js";
import { type ConferenceState, findParticipant, nowOf, openStay } from "./conference-room.js";

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
      const wasSilent = current.muted || current.hold;
      current = ctx.store.participants.replace({ ...current, [key]: value, updated_at: nowOf(state) });
      const stay = openStay(state, conference.sid, current.call_sid);
      if (stay && !wasSilent && (current.muted || current.hold))
        stay.silenced.push({ from: nowOf(state), to: null });
      const open = stay?.silenced.at(-1);
      if (open && open.to === null && !current.muted && !current.hold) open.to = nowOf(state);
      const event = changeEvent(key, value);
      links.note(current.call_sid, `conference.${event}`, { sid: conference.sid });
      if (key === "hold") links.signal(current.call_sid);
      conferenceCallback(state, conference, event, participantParams(current));
    }
    return current;
  });
}
