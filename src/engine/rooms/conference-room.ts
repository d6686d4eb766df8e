// A conference room's state beside its record: who stands where, each caller's stays, and the small shared helpers.
import type { Conference, Participant } from "../../domain/conference.js";
import type { Recording, SpeechSpan } from "../../domain/recording.js";
import type { HeardEntry } from "../../markup/effects.js";
import type { MarkupNode } from "../../markup/parse.js";
import type { EngineServices } from "../context/engine-services.js";
import type { Utterance } from "../speech/utterance.js";

/** What the conference room needs from the call engine. */
export interface ConferenceLinks {
  services: EngineServices;
  /** Wakes the call's program (a `signal` named "conference"): it re-reads its state. */
  signal(callSid: string): void;
  speechOf(callSid: string): Utterance[];
  /** What the caller says live (a browser phone's microphone), as the call keeps it. */
  liveAudioOf(callSid: string): LiveAudio[];
  heard(callSid: string, entry: Omit<HeardEntry, "at">): void;
  note(callSid: string, kind: string, detail?: Record<string, unknown>): void;
  /** Completes a recording with its speech (and starts the account's default transcription). */
  finishRecording(sid: string, endAt: number, speech: SpeechSpan[]): Recording;
}

/** A stretch of live audio: mu-law at 8 kHz, 8 bytes a millisecond from `start` (clock times). */
export interface LiveAudio {
  start: number;
  end: number;
  chunks: Uint8Array[];
}

export interface Presence {
  callSid: string;
  /**
   * What the caller says, as it says it (the call's own list, held here rather than looked up by sid: a
   * finished call's runtime may be dropped while the room's recording still runs).
   */
  speech: Utterance[];
  /** What the caller says live, the call's own list as `speech` is. */
  liveAudio: LiveAudio[];
  from: number;
  to: number | null;
  /** Stretches when the caller was muted or on hold: nothing it said then reaches the room. */
  silenced: { from: number; to: number | null }[];
}

export interface RoomRuntime {
  /** SequenceNumber of the next status callback of this conference. */
  sequence: number;
  maxParticipants: number;
  /** Every stay of every call in the room, in join order (the recording's speech comes from these). */
  presence: Presence[];
  /** Participants talking now, and when their words end (statusCallbackEvent "speaker"). */
  speaking: Map<string, number>;
  /** Coaches and the call each coaches: only that call hears a coach, so the room (and its recording) does not. */
  coaching: Map<string, string>;
}

/** Where a call stands in its conference; "out" once released or kicked (until its Dial moves on). */
export interface Standing {
  conferenceSid: string;
  state: "waiting" | "live" | "out";
}

/** The conferences' state held between events (the maps are replaced on reset). */
export interface ConferenceState {
  links: ConferenceLinks;
  rooms: Map<string, RoomRuntime>;
  standing: Map<string, Standing>;
  /** What each caller is to hear announced, in order (conference-announce.ts). */
  announcements: Map<string, PendingAnnouncement[]>;
}

/** One announcement, shared by the callers it is for. */
export interface AnnouncementShared {
  url: string;
  method: "GET" | "POST";
  conferenceSid: string;
  /** The one caller (participant-level), for the callbacks; null: the room. */
  callSid: string | null;
  /** null until fetched, the verbs once fetched, "failed" when the fetch failed. */
  verbs: MarkupNode[] | null | "failed";
  /** Who is to hear it and has not yet (the fetcher first). */
  listeners: Set<string>;
}

/** What one caller is to hear: an announcement, and whether this caller fetches it. */
export interface PendingAnnouncement {
  shared: AnnouncementShared;
  fetcher: boolean;
}

export const nowOf = (state: ConferenceState) => state.links.services.ctx.clock.now();

export function roomOf(state: ConferenceState, sid: string): RoomRuntime {
  let room = state.rooms.get(sid);
  if (!room) {
    room = { sequence: 1, maxParticipants: 250, presence: [], speaking: new Map(), coaching: new Map() };
    state.rooms.set(sid, room);
  }
  return room;
}

export const participantsOf = (state: ConferenceState, conferenceSid: string) =>
  state.links.services.ctx.store.participants.where("conference", conferenceSid);

export const findParticipant = (state: ConferenceState, callSid: string) =>
  state.links.services.ctx.store.participants.findOne("call", callSid);

/** The caller's open stay in the room (the one it has not left yet). */
export const openStay = (state: ConferenceState, conferenceSid: string, callSid: string) =>
  roomOf(state, conferenceSid).presence.find((s) => s.callSid === callSid && s.to === null);

export const saveConference = (state: ConferenceState, conference: Conference, change: Partial<Conference>) =>
  state.links.services.ctx.store.conferences.replace({ ...conference, ...change, updated_at: nowOf(state) });

/** Muted, on hold or coaching: what the participant says does not reach the room. */
export const unheard = (state: ConferenceState, p: Participant) =>
  p.muted || p.hold || roomOf(state, p.conference_sid).coaching.has(p.call_sid);

/** The room stops (or starts again) hearing a participant whose muted, hold or coaching changed. */
export function hearChanged(state: ConferenceState, before: boolean, p: Participant) {
  const stay = openStay(state, p.conference_sid, p.call_sid);
  const now = unheard(state, p);
  if (!stay || before === now) return;
  if (now) stay.silenced.push({ from: nowOf(state), to: null });
  else {
    const open = stay.silenced.at(-1);
    if (open && open.to === null) open.to = nowOf(state);
  }
}

/** Every live participant but `except` hears a beep (someone entered or left). */
export function beepOthers(state: ConferenceState, conferenceSid: string, except: string) {
  for (const other of participantsOf(state, conferenceSid)) {
    if (other.call_sid !== except && state.standing.get(other.call_sid)?.state === "live") {
      state.links.heard(other.call_sid, { kind: "beep" });
    }
  }
}
