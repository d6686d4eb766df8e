// A live call's audio as its party hears and speaks it, 20 ms of mu-law at a time: what a browser phone plays and sends.
import alawmulaw from "alawmulaw";
import { frameBytes } from "../media-streams/stream-protocol.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { outboundFrame, trackFrame } from "./call-stream-hosts.js";
import { dialRinging, holdMusicFrame, ringbackFrame, waitingOnHold } from "./call-tones.js";
import { audioAt, keepMic } from "./caller-audio.js";
import type { CallerWords } from "./caller-words.js";

const silenceByte = 0xff;

export interface CallAudio {
  /**
   * The 20 ms (160 bytes of mu-law) the call's party hears from clock time `at`: an app's audio on a media
   * stream, the sandbox's speech for <Say> and greetings, a tone for <Play> and digits, the bridged leg's
   * party; undefined once the call is over (or for a call the engine does not run).
   */
  heard(callSid: string, at: number): Uint8Array | undefined;
  /** The party says `audio` (mu-law, 8 bytes a millisecond) now: false once the call is over. */
  speak(callSid: string, audio: Uint8Array): boolean;
  /** True while the call is live (ringing, in progress). */
  live(callSid: string): boolean;
}

function liveRuntime(reg: CallRegistry, callSid: string): CallRuntime | undefined {
  const rt = reg.runtime(callSid);
  return rt && !rt.finishing ? rt : undefined;
}

/**
 * What the party hears at `at`: the app's audio first, then the sandbox's, then the bridged leg's party, else
 * ringback while its Dial rings or music while it waits on hold.
 */
function heardFrame(reg: CallRegistry, rt: CallRuntime, at: number): Uint8Array {
  const app = audioAt(rt.played, at, frameBytes);
  if (app) return app;
  const sandbox = Buffer.from(outboundFrame(rt, at), "base64");
  if (sandbox.some((byte) => byte !== silenceByte)) return sandbox;
  const other = rt.bridgedWith ? reg.runtime(rt.bridgedWith) : undefined;
  if (other) return Buffer.from(trackFrame(other, "inbound", at), "base64");
  const room = conferenceFrame(reg, rt.sid, at);
  if (room) return room;
  if (dialRinging(reg, rt)) return ringbackFrame(at);
  if (waitingOnHold(reg, rt.sid)) return holdMusicFrame(at);
  return sandbox;
}

/**
 * In a conference that has started, the other participants' voices mixed (the muted ones left out); null when
 * the call is in none, or none of them speaks now.
 */
function conferenceFrame(reg: CallRegistry, callSid: string, at: number): Uint8Array | null {
  const { store } = reg.services.ctx;
  const self = store.participants.findOne("call", callSid);
  if (!self || self.hold || store.conferences.get(self.conference_sid)?.status !== "in-progress") return null;
  const mixed = new Int32Array(frameBytes);
  let voices = 0;
  for (const participant of store.participants.where("conference", self.conference_sid)) {
    const other =
      participant.call_sid === callSid || participant.muted ? undefined : reg.runtime(participant.call_sid);
    if (!other) continue;
    const frame = alawmulaw.mulaw.decode(Buffer.from(trackFrame(other, "inbound", at), "base64"));
    for (let i = 0; i < frameBytes; i++) mixed[i]! += frame[i]!;
    voices++;
  }
  if (voices === 0) return null;
  const samples = Int16Array.from(mixed, (v) => Math.max(-32768, Math.min(32767, v)));
  return alawmulaw.mulaw.encode(samples);
}

export function createCallAudio(reg: CallRegistry, words: CallerWords): CallAudio {
  return {
    heard(callSid, at) {
      const rt = liveRuntime(reg, callSid);
      return rt && heardFrame(reg, rt, at);
    },
    speak(callSid, audio) {
      const rt = liveRuntime(reg, callSid);
      if (!rt) return false;
      const at = keepMic(rt, reg.now(), audio);
      if (at !== null) words.heard(rt, at, audio);
      return true;
    },
    live: (callSid) => liveRuntime(reg, callSid) !== undefined,
  };
}
