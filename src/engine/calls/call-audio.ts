// A live call's audio as its party hears and speaks it, 20 ms of mu-law at a time: what a browser phone plays and sends.
import alawmulaw from "alawmulaw";
import { defaultHoldMusicUrl } from "../../markup/wait-loop.js";
import { frameBytes } from "../media-streams/stream-protocol.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";
import { outboundFrame, trackFrame } from "./call-stream-hosts.js";
import { dialRinging, holdMusicFrame, ringbackFrame, waitingOnHold } from "./call-tones.js";
import { audioAt, keepMic } from "./caller-audio.js";
import type { CallerWords } from "./caller-words.js";
import { heardLengthMs } from "./sandbox-speech.js";

const silenceByte = 0xff;

/**
 * The audio of the files <Play> names, as a listener's side fetched it (8 kHz mono mu-law), looked up without
 * waiting: undefined while it is being fetched or could not be (the fetch starts on the first lookup).
 */
export interface PlayMedia {
  audioOf(url: string): Uint8Array | undefined;
}

export interface CallAudio {
  /**
   * The 20 ms (160 bytes of mu-law) the call's party hears from clock time `at`: an app's audio on a media
   * stream, the sandbox's speech for <Say> and greetings, a tone for <Play> and digits, the bridged leg's
   * party; undefined once the call is over (or for a call the engine does not run).
   */
  heard(callSid: string, at: number, media?: PlayMedia): Uint8Array | undefined;
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
function heardFrame(reg: CallRegistry, rt: CallRuntime, at: number, media?: PlayMedia): Uint8Array {
  const app = audioAt(rt.played, at, frameBytes);
  if (app) return app;
  const played = playFrame(reg, rt, at, media);
  if (played) return played;
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
 * During a <Play> of a URL: the file's own audio from the play's start when it was fetched (silence past its end
 * until the play's counted length), else the hold tune while the call waits on hold (always for Twilio's
 * default hold music, which is not fetched); null: the usual tone.
 */
function playFrame(reg: CallRegistry, rt: CallRuntime, at: number, media?: PlayMedia): Uint8Array | null {
  const entry = playingAt(rt, at);
  if (!entry) return null;
  const audio = entry.url === defaultHoldMusicUrl ? undefined : media?.audioOf(entry.url);
  if (!audio) return waitingOnHold(reg, rt.sid) ? holdMusicFrame(at) : null;
  const out = new Uint8Array(frameBytes).fill(silenceByte);
  const from = Math.round((at - entry.at) * 8);
  if (from < audio.length) out.set(audio.subarray(from, from + frameBytes));
  return out;
}

/** The <Play> of a URL the party hears at `at`, among the newest heard entries. */
function playingAt(rt: CallRuntime, at: number): { at: number; url: string } | null {
  for (let i = rt.heard.length - 1; i >= 0 && i >= rt.heard.length - 8; i--) {
    const heard = rt.heard[i]!;
    if (heard.at > at) continue;
    if (at >= heard.at + heardLengthMs(heard)) return null;
    return heard.kind === "play" && heard.url ? { at: heard.at, url: heard.url } : null;
  }
  return null;
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
    heard(callSid, at, media) {
      const rt = liveRuntime(reg, callSid);
      return rt && heardFrame(reg, rt, at, media);
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
