// Where a call joins a conference: the room is found or opened, the caller enters, and two in can start it.
import type { Conference } from "../../domain/conference.js";
import type { ConferenceHost, ConferenceJoin } from "../../markup/effects.js";
import { recordEvent } from "../context/events.js";
import { conferenceCallback, participantParams } from "./conference-callbacks.js";
import { beepOthers, type ConferenceState, nowOf, participantsOf, roomOf } from "./conference-room.js";
import { startConference } from "./conference-start.js";

/** The running conference of that name, or a new one with the first joiner's settings (as Twilio does). */
export function openConference(
  state: ConferenceState,
  accountSid: string,
  input: ConferenceJoin,
): Conference {
  const { ctx } = state.links.services;
  return ctx.store.transact(() => {
    let conference = ctx.store.conferences.findOne("live", `${accountSid}:${input.name}`);
    if (!conference) {
      const at = nowOf(state);
      conference = ctx.store.conferences.insert({
        sid: ctx.ids.mint("CF"),
        account_sid: accountSid,
        friendly_name: input.name,
        status: "init",
        region: "us1",
        reason_conference_ended: null,
        call_sid_ending_conference: null,
        record: input.record,
        status_callback: input.statusCallback,
        status_callback_method: input.statusCallbackMethod,
        status_callback_events: input.statusCallbackEvents,
        recording_status_callback: input.recordingStatusCallback,
        recording_status_callback_method: input.recordingStatusCallbackMethod,
        recording_status_callback_events: input.recordingStatusCallbackEvents,
        recording_sid: null,
        started_at: null,
        ended_at: null,
        created_at: at,
        updated_at: at,
      });
      roomOf(state, conference.sid).maxParticipants = input.maxParticipants;
      recordEvent(ctx, "conference.created", conference.account_sid, "conference", conference);
    }
    return conference;
  });
}

/** The call's <Conference> enters the room (or finds it full); it waits, or is live if the room already is. */
export function joinConference(
  state: ConferenceState,
  callSid: string,
  input: ConferenceJoin,
): ReturnType<ConferenceHost["join"]> {
  const { links } = state;
  const { ctx } = links.services;
  const call = ctx.store.calls.get(callSid)!;
  const coach = input.coach ?? null;
  if (coach !== null && !coachable(state, call.account_sid, input.name, coach))
    return { invalidCoach: coach };
  return ctx.store.transact(() => {
    const conference = openConference(state, call.account_sid, input);
    const room = roomOf(state, conference.sid);
    if (participantsOf(state, conference.sid).length >= room.maxParticipants) {
      links.note(callSid, "conference.full", { sid: conference.sid, max: room.maxParticipants });
      return { full: true as const };
    }
    const at = nowOf(state);
    const participant = ctx.store.participants.insert({
      account_sid: call.account_sid,
      conference_sid: conference.sid,
      call_sid: callSid,
      label: input.label,
      muted: input.muted,
      hold: false,
      start_conference_on_enter: input.startConferenceOnEnter,
      end_conference_on_exit: input.endConferenceOnExit,
      beep: input.beep,
      status: "connected",
      created_at: at,
      updated_at: at,
    });
    if (coach !== null) room.coaching.set(callSid, coach);
    room.presence.push({
      callSid,
      speech: links.speechOf(callSid),
      liveAudio: links.liveAudioOf(callSid),
      from: at,
      to: null,
      // A muted caller, or a coach (heard by the call it coaches alone), is not heard by the room.
      silenced: input.muted || coach !== null ? [{ from: at, to: null }] : [],
    });
    const live = conference.status === "in-progress";
    state.standing.set(callSid, { conferenceSid: conference.sid, state: live ? "live" : "waiting" });
    links.note(callSid, "conference.join", { sid: conference.sid, name: input.name });
    conferenceCallback(state, conference, "participant-join", participantParams(state, participant));
    if (live && (input.beep === "true" || input.beep === "onEnter"))
      beepOthers(state, conference.sid, callSid);
    const present = participantsOf(state, conference.sid);
    // Twilio: the conference starts once two are in and one of them has startConferenceOnEnter.
    if (!live && present.length >= 2 && present.some((p) => p.start_conference_on_enter))
      startConference(state, conference);
    return { conferenceSid: conference.sid };
  });
}

/**
 * Twilio's 13240: "Twilio requires coach to reference a call that is currently connected to an in-progress
 * conference": a participant of the account's running room of that name, the room in progress.
 */
export function coachable(
  state: ConferenceState,
  accountSid: string,
  name: string,
  coached: string,
): boolean {
  const { ctx } = state.links.services;
  const conference = ctx.store.conferences.findOne("live", `${accountSid}:${name}`);
  if (conference?.status !== "in-progress") return false;
  return ctx.store.participants.findOne("call", coached)?.conference_sid === conference.sid;
}
