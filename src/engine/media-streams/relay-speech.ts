// What a ConversationRelay agent plays to the caller: its queue of words, audio and digits, played in turn on the clock, preempted or cut.
import { speechLengthMs } from "../../markup/speech-length.js";
import { digitLengthMs, playLengthMs } from "../../markup/verbs/play.js";
import { eventClass } from "../time/scheduler.js";
import { relayMessages } from "./relay-protocol.js";
import { type Playing, type RelayState, type Speech, sendToRelayApp } from "./relay-state.js";
import { ttsFor } from "./relay-voices.js";

/** Utterances, audio and digits queued to play at once; more is dropped with an `error` to the app. */
export const maxQueuedSpeech = 1_000;

const lengthOf = (item: Speech) =>
  item.kind === "say"
    ? speechLengthMs(item.text)
    : item.kind === "play"
      ? playLengthMs * item.loops
      : item.digits.length * digitLengthMs;

/** The caller hears the item: words go through speech synthesis in its language's voice. */
function sound(r: RelayState, item: Speech): void {
  const { host } = r;
  if (item.kind === "say") {
    const { voice } = ttsFor(r.spec, item.language);
    host.tts(item.text, voice, item.language);
    host.heard({ kind: "say", text: item.text, voice, language: item.language });
  } else if (item.kind === "play") host.heard({ kind: "play", url: item.url });
  else host.heard({ kind: "digits", text: item.digits });
}

/** Plays the next queued utterance, audio or digits, one after another on the clock. */
export function playNext(r: RelayState): void {
  if (r.playing || r.state !== "open") return;
  const item = r.queue.shift();
  if (!item) return;
  const { host } = r;
  if (!r.talking) {
    r.talking = true;
    host.scheduler.cancel(r.quiet);
    r.quiet = null;
    host.talking();
  }
  sound(r, item);
  const ms = lengthOf(item);
  const handle = host.scheduler.after(ms, eventClass.timer, `relay speech ${r.sessionId}`, () => {
    r.playing = null;
    if (r.queue.length === 0) {
      r.talking = false;
      r.conversation?.agent(host.now(), false);
      host.listening();
    }
    playNext(r);
  });
  r.playing = { item, startedAt: host.now(), ms, handle };
  r.conversation?.agent(host.now(), true);
}

/** Stops what is playing now: the caller heard it up to here, the words said by then (in proportion to its time). */
export function cutPlaying(r: RelayState, current: Playing): { said: string; elapsed: number } {
  const elapsed = r.host.now() - current.startedAt;
  const text = current.item.kind === "say" ? current.item.text : "";
  const words = text.split(/\s+/).filter(Boolean);
  const said = words.slice(0, Math.floor((words.length * elapsed) / current.ms)).join(" ");
  r.host.scheduler.cancel(current.handle);
  r.playing = null;
  r.host.cutHeard(elapsed, said);
  return { said, elapsed };
}

/** The app's next item cuts a preemptible one playing, and drops preemptible ones still queued. */
function preempt(r: RelayState): void {
  const current = r.playing;
  if (current && current.item.kind !== "digits" && current.item.preemptible) {
    const { elapsed } = cutPlaying(r, current);
    r.host.timeline("relay.preempted", { sessionId: r.sessionId, ms: elapsed });
  }
  const { queue } = r;
  for (let i = queue.length - 1; i >= 0; i--) {
    const queued = queue[i]!;
    if (queued.kind !== "digits" && queued.preemptible) queue.splice(i, 1);
  }
}

/** The agent's next item: queued behind what plays (unless the queue is full), preempting what it may. */
export function enqueueSpeech(r: RelayState, item: Speech): void {
  if (item.kind !== "digits") preempt(r);
  if (r.queue.length >= maxQueuedSpeech) {
    sendToRelayApp(
      r,
      relayMessages.error(`More than ${maxQueuedSpeech} items queued to play; this one was dropped`),
    );
    return;
  }
  r.queue.push(item);
  playNext(r);
}
