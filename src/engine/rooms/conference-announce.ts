// AnnounceUrl: markup played into a live room, or to one participant; one caller fetches it, the others hear its verbs.
import type { Conference } from "../../domain/conference.js";
import type { Announcement } from "../../markup/effects.js";
import type { MarkupNode } from "../../markup/parse.js";
import { conferenceCallback } from "./conference-callbacks.js";
import type { AnnouncementShared, ConferenceState } from "./conference-room.js";

/**
 * Queues an announcement for `callSids` (every live participant, or one): the first fetches it, the rest
 * hear the verbs it fetched. Each is woken to play it.
 */
export function announce(
  state: ConferenceState,
  conference: Conference,
  input: { url: string; method: "GET" | "POST" },
  callSids: string[],
  one: string | null,
): void {
  if (callSids.length === 0) return;
  const shared: AnnouncementShared = {
    ...input,
    conferenceSid: conference.sid,
    callSid: one,
    verbs: null,
    listeners: new Set(callSids),
  };
  callSids.forEach((callSid, index) => {
    const queue = state.announcements.get(callSid) ?? [];
    queue.push({ shared, fetcher: index === 0 });
    state.announcements.set(callSid, queue);
    state.links.note(callSid, "conference.announce", { sid: conference.sid, url: input.url });
    state.links.signal(callSid);
  });
}

/** The caller's next announcement it can play now, dropping failed ones. */
export function nextAnnouncement(state: ConferenceState, callSid: string): Announcement | null {
  const queue = state.announcements.get(callSid);
  while (queue && queue.length > 0) {
    const { shared, fetcher } = queue[0]!;
    if (shared.verbs === "failed") {
      heard(state, callSid);
      continue;
    }
    if (fetcher && shared.verbs === null) return { url: shared.url, method: shared.method, document: null };
    if (Array.isArray(shared.verbs))
      return { url: shared.url, method: shared.method, document: shared.verbs };
    return null;
  }
  return null;
}

/** The fetcher's answer: the others it is for are woken to play it, or it failed (announcement-failed). */
export function announced(state: ConferenceState, callSid: string, verbs: MarkupNode[] | null): void {
  const head = state.announcements.get(callSid)?.[0];
  if (!head?.fetcher || head.shared.verbs !== null) return;
  head.shared.verbs = verbs ?? "failed";
  for (const other of head.shared.listeners) if (other !== callSid) state.links.signal(other);
  if (verbs === null) announcementCallback(state, head.shared, "announcement-failed");
}

/** The caller heard its announcement (or it failed); the last one to hear it ends it (announcement-end). */
export function heard(state: ConferenceState, callSid: string): void {
  const queue = state.announcements.get(callSid);
  // A fetcher that never fetched (it left the room first): the announcement fails for the others too.
  if (queue?.[0]?.fetcher && queue[0].shared.verbs === null) announced(state, callSid, null);
  const head = queue?.shift();
  if (queue?.length === 0) state.announcements.delete(callSid);
  if (!head) return;
  head.shared.listeners.delete(callSid);
  if (head.shared.listeners.size === 0 && head.shared.verbs !== "failed")
    announcementCallback(state, head.shared, "announcement-end");
}

/** The caller leaves the room: it hears none of its announcements; one it was to fetch fails. */
export function dropAnnouncements(state: ConferenceState, callSid: string): void {
  while (state.announcements.has(callSid)) heard(state, callSid);
}

function announcementCallback(state: ConferenceState, shared: AnnouncementShared, event: string): void {
  const conference = state.links.services.ctx.store.conferences.get(shared.conferenceSid);
  if (!conference) return;
  conferenceCallback(state, conference, event, {
    AnnounceUrl: shared.url,
    ...(shared.callSid ? { CallSid: shared.callSid } : {}),
  });
}
