// What a live caller said (a browser phone's microphone): each utterance found by its loudness, handed to the sandbox's transcriber, its words given to the call as speech.
import alawmulaw from "alawmulaw";
import {
  maxUtteranceMs,
  type TranscriberPool,
  transcribeUtterance,
  type UtteranceHost,
} from "../media-streams/agent-utterances.js";
import { type ByteQueue, newByteQueue, pushBytes, takeBytes } from "../media-streams/stream-bytes.js";
import { eventClass } from "../time/scheduler.js";
import type { CallRegistry } from "./call-registry.js";
import type { CallRuntime } from "./call-runtime.js";

/** A frame this loud on average (16-bit samples) is speech: about -36 dBFS, above a quiet room's hiss. */
export const speakingLevel = 500;
/** An utterance ends after this long without a loud frame, as a recogniser's end of speech does. */
export const callerQuietMs = 700;
/** The recogniser's confidence the caller's words carry (a transcriber gives text alone). */
const confidence = 0.9;

interface Utterance {
  bytes: ByteQueue;
  startedAt: number;
  /** When the last loud frame ended (clock time). */
  loudUntil: number;
  /** Whether a check for its end is set. */
  checking: boolean;
}

export interface CallerWords {
  /** The caller said `audio` (mu-law, 8 bytes a millisecond) from `at`. */
  heard(rt: CallRuntime, at: number, audio: Uint8Array): void;
}

function loudness(audio: Uint8Array): number {
  const samples = alawmulaw.mulaw.decode(audio);
  let sum = 0;
  for (const sample of samples) sum += Math.abs(sample);
  return samples.length === 0 ? 0 : sum / samples.length;
}

/**
 * With a transcriber, a live caller's utterances become words: an utterance starts at its first loud frame (the
 * call's program hears the speech start, as a barge-in), ends after `callerQuietMs` of quiet (or at the
 * transcriber's longest utterance), and its words reach the call as the caller's speech: a `<Gather
 * input="speech">` result, a ConversationRelay prompt. Without one, the audio goes only where audio goes.
 */
export function createCallerWords(reg: CallRegistry, pool: TranscriberPool | null): CallerWords {
  const utterances = new WeakMap<CallRuntime, Utterance>();
  const host = (rt: CallRuntime): UtteranceHost => ({
    scheduler: reg.services.scheduler,
    clockMode: () => reg.services.ctx.clock.mode,
    callSid: rt.sid,
    streamSid: null,
    speaker: "caller",
    timeline: (kind, detail) => reg.note(rt, kind, detail),
    said(text, startedAt, ms) {
      // A call that ended (or was dropped by a reset) since hears nothing more.
      if (reg.runtime(rt.sid) !== rt || rt.finishing) return;
      reg.note(rt, "caller.said", { text, ms, startedAt: new Date(startedAt).toISOString() });
      if (text) void reg.parts.program.deliver(rt, { kind: "speech", text, confidence, startedAt });
    },
  });
  const end = (rt: CallRuntime, utterance: Utterance) => {
    utterances.delete(rt);
    const mulaw = takeBytes(utterance.bytes, utterance.bytes.length);
    transcribeUtterance(pool!, host(rt), {
      speaker: "caller",
      callSid: rt.sid,
      streamSid: null,
      mulaw,
      pcm: alawmulaw.mulaw.decode(mulaw),
      sampleRate: 8000,
      startedAt: utterance.startedAt,
      durationMs: mulaw.length / 8,
    });
  };
  const watch = (rt: CallRuntime, utterance: Utterance) => {
    if (utterance.checking) return;
    utterance.checking = true;
    reg.timer(rt, utterance.loudUntil + callerQuietMs, eventClass.input, "caller quiet", () => {
      utterance.checking = false;
      if (utterances.get(rt) !== utterance) return;
      if (reg.now() - utterance.loudUntil >= callerQuietMs) end(rt, utterance);
      else watch(rt, utterance);
    });
  };
  return {
    heard(rt, at, audio) {
      if (!pool || audio.length === 0) return;
      const loud = loudness(audio) >= speakingLevel;
      let utterance = utterances.get(rt);
      if (!utterance) {
        if (!loud) return;
        utterance = { bytes: newByteQueue(), startedAt: at, loudUntil: at, checking: false };
        utterances.set(rt, utterance);
        reg.note(rt, "caller.speech-start");
        void reg.parts.program.deliver(rt, { kind: "speech-start" }, true);
      }
      pushBytes(utterance.bytes, audio);
      if (loud) utterance.loudUntil = at + audio.length / 8;
      if (at + audio.length / 8 - utterance.startedAt >= maxUtteranceMs) end(rt, utterance);
      else watch(rt, utterance);
    },
  };
}
