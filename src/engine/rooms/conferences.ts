// Conferences on the clock: join, start, leave, end, mute/hold/kick, status callbacks and the conference recording.
import type { Conference, ConferenceEndReason, Participant } from "../../domain/conference.js";
import { participantId } from "../../domain/conference.js";
import type { Recording, SpeechSpan } from "../../domain/recording.js";
import type { ConferenceHost, ConferenceJoin, HeardEntry } from "../../markup/effects.js";
import { type EngineServices, sendCallback } from "../context/engine-services.js";
import { recordEvent } from "../context/events.js";
import { startRecording } from "../recordings/recordings.js";
import type { Utterance } from "../speech/utterance.js";
import { rfc2822 } from "../time/timestamps.js";

/** What the conference room needs from the call engine. */
export interface ConferenceLinks {
  services: EngineServices;
  /** Wakes the call's program (a `signal` named "conference"): it re-reads its state. */
  signal(callSid: string): void;
  speechOf(callSid: string): Utterance[];
  heard(callSid: string, entry: Omit<HeardEntry, "at">): void;
  note(callSid: string, kind: string, detail?: Record<string, unknown>): void;
  /** Completes a recording with its speech (and starts the account's default transcription). */
  finishRecording(sid: string, endAt: number, speech: SpeechSpan[]): Recording;
}

/** REST control of conferences (the account API's Conferences and Participants). */
export interface ConferenceControl {
  /** Status=completed: the conference ends and every participant's call moves on past its Dial. */
  end(conference: Conference): Conference;
  update(participant: Participant, change: { muted?: boolean; hold?: boolean }): Participant;
  /** Removes a participant; its call carries on with the Dial action or the next verb. */
  kick(participant: Participant): void;
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
  reset(): void;
}

interface Presence {
  callSid: string;
  /**
   * What the caller says, as it says it (the call's own list, held here rather than looked up by sid: a
   * finished call's runtime may be dropped while the room's recording still runs).
   */
  speech: Utterance[];
  from: number;
  to: number | null;
  /** Stretches when the caller was muted or on hold: nothing it said then reaches the room. */
  silenced: { from: number; to: number | null }[];
}

interface RoomRuntime {
  /** SequenceNumber of the next status callback of this conference. */
  sequence: number;
  maxParticipants: number;
  /** Every stay of every call in the room, in join order (the recording's speech comes from these). */
  presence: Presence[];
}

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
};

export function createConferences(links: ConferenceLinks): Conferences {
  const { ctx } = links.services;
  const now = () => ctx.clock.now();
  let rooms = new Map<string, RoomRuntime>();
  /** Where each call stands; "out" once released or kicked (until its Dial moves on). */
  let standing = new Map<string, { conferenceSid: string; state: "waiting" | "live" | "out" }>();

  const roomOf = (sid: string): RoomRuntime => {
    let room = rooms.get(sid);
    if (!room) {
      room = { sequence: 1, maxParticipants: 250, presence: [] };
      rooms.set(sid, room);
    }
    return room;
  };
  const participantsOf = (conferenceSid: string) => ctx.store.participants.where("conference", conferenceSid);

  function callback(conference: Conference, event: string, extra: Record<string, string> = {}) {
    if (!conference.status_callback) return;
    if (!conference.status_callback_events.includes(eventGroups[event] ?? event)) return;
    const sequence = roomOf(conference.sid).sequence++;
    sendCallback(links.services, {
      kind: "call-status",
      url: conference.status_callback,
      method: conference.status_callback_method,
      params: {
        AccountSid: conference.account_sid,
        ConferenceSid: conference.sid,
        FriendlyName: conference.friendly_name,
        SequenceNumber: String(sequence),
        StatusCallbackEvent: event,
        Timestamp: rfc2822(now()),
        ...extra,
      },
      accountSid: conference.account_sid,
      callSid: extra.CallSid,
      // One conference's callbacks leave in the order they happened (Twilio serialises them per conference).
      orderingKey: conference.sid,
    });
  }

  const participantParams = (p: Participant): Record<string, string> => ({
    CallSid: p.call_sid,
    Coaching: "false",
    EndConferenceOnExit: String(p.end_conference_on_exit),
    Hold: String(p.hold),
    Muted: String(p.muted),
    StartConferenceOnEnter: String(p.start_conference_on_enter),
  });

  const save = (conference: Conference, change: Partial<Conference>) =>
    ctx.store.conferences.replace({ ...conference, ...change, updated_at: now() });

  const beep = (conferenceSid: string, except: string) => {
    for (const other of participantsOf(conferenceSid)) {
      if (other.call_sid !== except && standing.get(other.call_sid)?.state === "live") {
        links.heard(other.call_sid, { kind: "beep" });
      }
    }
  };

  function start(conference: Conference): Conference {
    let started = save(conference, { status: "in-progress", started_at: now() });
    recordEvent(ctx, "conference.started", started.account_sid, "conference", started);
    for (const p of participantsOf(started.sid)) {
      standing.set(p.call_sid, { conferenceSid: started.sid, state: "live" });
      links.note(p.call_sid, "conference.start", { sid: started.sid });
      links.signal(p.call_sid);
    }
    callback(started, "conference-start");
    if (started.record) {
      // record-from-start: one mono recording of the room, from start to end, belonging to the first caller.
      const first = participantsOf(started.sid)[0];
      const call = first ? ctx.store.calls.get(first.call_sid) : undefined;
      if (call) {
        const recording = startRecording(links.services, {
          call,
          source: "Conference",
          channels: 1,
          conferenceSid: started.sid,
          statusCallback: started.recording_status_callback,
          statusCallbackMethod: started.recording_status_callback_method,
          statusCallbackEvents: started.recording_status_callback_events,
        });
        started = save(started, { recording_sid: recording.sid });
      }
    }
    return started;
  }

  /** What the participants said while the recording ran and they were in the room; one channel per caller (at most 2). */
  function roomSpeech(conference: Conference, recording: Recording, endAt: number): SpeechSpan[] {
    const room = roomOf(conference.sid);
    const order: string[] = [];
    const spans: SpeechSpan[] = [];
    for (const stay of room.presence) {
      if (!order.includes(stay.callSid)) order.push(stay.callSid);
      const from = Math.max(stay.from, recording.start_time);
      const to = Math.min(stay.to ?? endAt, endAt);
      const silenced = (at: number) => stay.silenced.some((q) => at >= q.from && at < (q.to ?? Infinity));
      for (const u of stay.speech) {
        if (u.end <= from || u.start >= to || silenced(u.start)) continue;
        spans.push({
          channel: Math.min(order.indexOf(stay.callSid) + 1, 2),
          text: u.text,
          start_ms: Math.max(u.start, from) - recording.start_time,
          end_ms: Math.min(u.end, to) - recording.start_time,
        });
      }
    }
    return spans.sort((a, b) => a.start_ms - b.start_ms || a.channel - b.channel);
  }

  function removeParticipant(p: Participant, conference: Conference) {
    ctx.store.participants.delete(participantId(p));
    const stay = roomOf(conference.sid).presence.find((s) => s.callSid === p.call_sid && s.to === null);
    if (stay) stay.to = now();
    standing.set(p.call_sid, { conferenceSid: conference.sid, state: "out" });
    links.note(p.call_sid, "conference.leave", { sid: conference.sid });
    callback(conference, "participant-leave", participantParams(p));
  }

  function endConference(conference: Conference, reason: ConferenceEndReason, endingCallSid: string | null) {
    for (const p of participantsOf(conference.sid)) {
      removeParticipant(p, conference);
      links.signal(p.call_sid);
    }
    const at = now();
    if (conference.recording_sid) {
      const recording = ctx.store.recordings.get(conference.recording_sid);
      if (recording && recording.status === "in-progress") {
        links.finishRecording(recording.sid, at, roomSpeech(conference, recording, at));
      }
    }
    const ended = save(conference, {
      status: "completed",
      reason_conference_ended: reason,
      call_sid_ending_conference: endingCallSid,
      ended_at: at,
    });
    recordEvent(ctx, "conference.ended", ended.account_sid, "conference", ended);
    const extra: Record<string, string> = { ReasonConferenceEnded: reason };
    if (endingCallSid) extra.CallSidEndingConference = endingCallSid;
    callback(ended, "conference-end", extra);
    return ended;
  }

  function leave(callSid: string, how: "left" | "kicked") {
    const p = ctx.store.participants.findOne("call", callSid);
    if (!p) return;
    ctx.store.transact(() => {
      const conference = ctx.store.conferences.get(p.conference_sid)!;
      removeParticipant(p, conference);
      if (conference.status === "in-progress" && (p.beep === "true" || p.beep === "onExit")) {
        beep(conference.sid, callSid);
      }
      const remaining = participantsOf(conference.sid);
      if (p.end_conference_on_exit && conference.status === "in-progress") {
        const reason =
          how === "kicked"
            ? "participant-with-end-conference-on-exit-kicked"
            : "participant-with-end-conference-on-exit-left";
        endConference(conference, reason, callSid);
      } else if (remaining.length === 0) {
        endConference(
          conference,
          how === "kicked" ? "last-participant-kicked" : "last-participant-left",
          callSid,
        );
      }
    });
  }

  /** The running conference of that name, or a new one with the first joiner's settings (as Twilio does). */
  function openRoom(accountSid: string, input: ConferenceJoin): Conference {
    return ctx.store.transact(() => {
      let conference = ctx.store.conferences.findOne("live", `${accountSid}:${input.name}`);
      if (!conference) {
        const at = now();
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
        roomOf(conference.sid).maxParticipants = input.maxParticipants;
        recordEvent(ctx, "conference.created", conference.account_sid, "conference", conference);
      }
      return conference;
    });
  }

  function join(callSid: string, input: ConferenceJoin): { conferenceSid: string } | { full: true } {
    const call = ctx.store.calls.get(callSid)!;
    return ctx.store.transact(() => {
      const conference = openRoom(call.account_sid, input);
      const room = roomOf(conference.sid);
      if (participantsOf(conference.sid).length >= room.maxParticipants) {
        links.note(callSid, "conference.full", { sid: conference.sid, max: room.maxParticipants });
        return { full: true as const };
      }
      const at = now();
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
      room.presence.push({
        callSid,
        speech: links.speechOf(callSid),
        from: at,
        to: null,
        silenced: input.muted ? [{ from: at, to: null }] : [],
      });
      const live = conference.status === "in-progress";
      standing.set(callSid, { conferenceSid: conference.sid, state: live ? "live" : "waiting" });
      links.note(callSid, "conference.join", { sid: conference.sid, name: input.name });
      callback(conference, "participant-join", participantParams(participant));
      if (live && (input.beep === "true" || input.beep === "onEnter")) beep(conference.sid, callSid);
      const present = participantsOf(conference.sid);
      // Twilio: the conference starts once two are in and one of them has startConferenceOnEnter.
      if (!live && present.length >= 2 && present.some((p) => p.start_conference_on_enter)) start(conference);
      return { conferenceSid: conference.sid };
    });
  }

  const findParticipant = (callSid: string) => ctx.store.participants.findOne("call", callSid);

  return {
    hostFor: (callSid) => ({
      join: (input) => join(callSid, input),
      state: () => standing.get(callSid)?.state ?? "out",
      held: () => findParticipant(callSid)?.hold ?? false,
      leave: () => {
        leave(callSid, "left");
        standing.delete(callSid);
      },
    }),
    callEnded(callSid) {
      leave(callSid, "left");
      standing.delete(callSid);
    },
    end(conference) {
      if (conference.status === "completed") return conference;
      return ctx.store.transact(() => endConference(conference, "conference-ended-via-api", null));
    },
    update(participant, change) {
      return ctx.store.transact(() => {
        let current = findParticipant(participant.call_sid) ?? participant;
        const conference = ctx.store.conferences.get(current.conference_sid)!;
        for (const key of ["muted", "hold"] as const) {
          const value = change[key];
          if (value === undefined || value === current[key]) continue;
          const wasSilent = current.muted || current.hold;
          current = ctx.store.participants.replace({ ...current, [key]: value, updated_at: now() });
          const stay = roomOf(conference.sid).presence.find(
            (q) => q.callSid === current.call_sid && q.to === null,
          );
          if (stay && !wasSilent && (current.muted || current.hold))
            stay.silenced.push({ from: now(), to: null });
          const open = stay?.silenced.at(-1);
          if (open && open.to === null && !current.muted && !current.hold) open.to = now();
          const event =
            key === "muted"
              ? value
                ? "participant-mute"
                : "participant-unmute"
              : value
                ? "participant-hold"
                : "participant-unhold";
          links.note(current.call_sid, `conference.${event}`, { sid: conference.sid });
          if (key === "hold") links.signal(current.call_sid);
          callback(conference, event, participantParams(current));
        }
        return current;
      });
    },
    kick(participant) {
      leave(participant.call_sid, "kicked");
      links.signal(participant.call_sid);
    },
    open: openRoom,
    reset() {
      rooms = new Map();
      standing = new Map();
    },
  };
}
