// Where a conference starts: the room goes live, its callers are woken, and record-from-start begins.
import type { Conference } from "../../domain/conference.js";
import { recordEvent } from "../context/events.js";
import { conferenceCallback } from "./conference-callbacks.js";
import { startConferenceRecording } from "./conference-recording.js";
import { type ConferenceState, nowOf, participantsOf, saveConference } from "./conference-room.js";

/** The conference goes in-progress: every waiting participant is live and its call moves on. */
export function startConference(state: ConferenceState, conference: Conference): Conference {
  const { links } = state;
  let started = saveConference(state, conference, { status: "in-progress", started_at: nowOf(state) });
  recordEvent(links.services.ctx, "conference.started", started.account_sid, "conference", started);
  for (const p of participantsOf(state, started.sid)) {
    state.standing.set(p.call_sid, { conferenceSid: started.sid, state: "live" });
    links.note(p.call_sid, "conference.start", { sid: started.sid });
    links.signal(p.call_sid);
  }
  conferenceCallback(state, started, "conference-start");
  if (started.record) started = startConferenceRecording(state, started);
  return started;
}
