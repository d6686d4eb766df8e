// The tones a party hears while nothing speaks: ringback while its Dial rings, music while it waits on hold (a queue, a conference not started).
import alawmulaw from "alawmulaw";
import { frameBytes } from "../media-streams/stream-protocol.js";
import { speechRate } from "../speech/speech-audio.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";

const amplitude = 2000;
/** North American ringback: 440 and 480 Hz together, two seconds on and four off. */
const ringbackOnMs = 2000;
const ringbackCycleMs = 6000;
/** Hold music: a slow arpeggio (G, B, D, G), half a second a note, in place of a queue's or conference's wait music. */
const holdNotes = [392, 494, 587, 784];
const holdNoteMs = 500;

/** 20 ms of the sum of `hz` tones from clock time `at`, timed from the clock's zero so frames join without clicks. */
function toneFrame(hz: readonly number[], at: number, level: number): Uint8Array {
  const first = Math.round((at * speechRate) / 1000);
  const samples = new Int16Array(frameBytes);
  for (let i = 0; i < frameBytes; i++) {
    let value = 0;
    for (const f of hz) value += Math.sin((2 * Math.PI * f * (first + i)) / speechRate);
    samples[i] = Math.round((level * value) / hz.length);
  }
  return alawmulaw.mulaw.encode(samples);
}

const silence = new Uint8Array(frameBytes).fill(0xff);

export function ringbackFrame(at: number): Uint8Array {
  return at % ringbackCycleMs < ringbackOnMs ? toneFrame([440, 480], at, amplitude) : silence;
}

export function holdMusicFrame(at: number): Uint8Array {
  const note = holdNotes[Math.floor(at / holdNoteMs) % holdNotes.length]!;
  return toneFrame([note], at, amplitude);
}

/** A leg the call dialled rings now: its party hears ringback. */
export function dialRinging(reg: CallRegistry, rt: CallRuntime): boolean {
  const calls = reg.services.ctx.store.calls;
  return rt.children.some((sid) => calls.get(sid)?.status === "ringing");
}

/** The call waits in a queue, on hold in a conference, or in a conference that has not started. */
export function waitingOnHold(reg: CallRegistry, callSid: string): boolean {
  const { store } = reg.services.ctx;
  if (store.queueMembers.get(callSid)) return true;
  const participant = store.participants.findOne("call", callSid);
  if (!participant) return false;
  return participant.hold || store.conferences.get(participant.conference_sid)?.status === "init";
}
