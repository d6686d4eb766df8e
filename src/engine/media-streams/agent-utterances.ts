// What a media-stream agent said: the app's audio of each turn, handed to a transcriber once the turn ends, its words applied on the clock.
import alawmulaw from "alawmulaw";
import type { ClockMode } from "../time/clock.js";
import { eventClass, type Scheduler } from "../time/scheduler.js";
import { quietAgentMs } from "./agent-turns.js";
import { newByteQueue, pushBytes, takeBytes } from "./stream-bytes.js";

/** One utterance: the agent's, as the caller heard it, or the caller's own (a browser phone's microphone). */
export interface AgentAudio {
  /** Whose words these are: a media-stream app's (`agent`), or a live caller's (`caller`). */
  readonly speaker: "agent" | "caller";
  readonly callSid: string;
  /** The stream whose app said it; null for a caller's words. */
  readonly streamSid: string | null;
  /** 8 kHz mu-law, one byte a sample; a gap between the app's pieces of audio is silence (0xFF). */
  readonly mulaw: Uint8Array;
  /** The same audio as 16-bit PCM samples. */
  readonly pcm: Int16Array;
  readonly sampleRate: 8000;
  /** Clock time its first sample played (ms since the epoch), and how long it lasts. */
  readonly startedAt: number;
  readonly durationMs: number;
}

/** Turns an agent's (or a live caller's) audio into the words it said (`createSandbox({ transcriber })`). */
export interface Transcriber {
  transcribe(audio: AgentAudio): string | Promise<string>;
  /** Virtual clock: real milliseconds the clock waits for one transcription before going on without it (default 30 000). */
  timeoutMs?: number;
}

/** The longest utterance handed over at once; a longer one is handed over in parts this long. */
export const maxUtteranceMs = 120_000;
/** Transcriptions under way at once in a sandbox; an utterance that ends while this many are is not transcribed. */
export const maxPendingTranscriptions = 32;
export const defaultTranscriberTimeoutMs = 30_000;

/** The sandbox's transcriber and what it has under way (shared by every stream). */
export interface TranscriberPool {
  readonly transcriber: Transcriber;
  pending: number;
}

export interface UtteranceHost {
  readonly scheduler: Scheduler;
  clockMode(): ClockMode;
  readonly callSid: string;
  readonly streamSid: string | null;
  /** Whose utterances these are; the timeline's notes about them start with `stream.` or `caller.`. */
  readonly speaker: AgentAudio["speaker"];
  timeline(kind: string, detail?: Record<string, unknown>): void;
  /** The transcriber's words for the utterance that played from `startedAt` for `ms`. */
  said(text: string, startedAt: number, ms: number): void;
}

/** A stream's utterances: the app's audio joins the one under way; a turn boundary ends it. */
export interface AgentUtterances {
  played(at: number, audio: Uint8Array): void;
  /** Whether the caller speaks now: each change is a turn boundary (their turn starts, or ends). */
  caller(speaking: boolean): void;
  /** The caller pressed a key, the app cleared its audio, or the stream ended: the utterance under way ends. */
  boundary(): void;
}

/** Eight kilobytes of mu-law silence: a second, to fill gaps with. */
const silence = new Uint8Array(8000).fill(0xff);
const bytesPerMs = 8;

type Outcome = { text: string } | { error: string };

export function trackAgentUtterances(pool: TranscriberPool, host: UtteranceHost): AgentUtterances {
  let bytes = newByteQueue();
  let startedAt = 0;
  let until = 0;
  let speaking = false;

  const end = () => {
    if (bytes.length === 0) return;
    const mulaw = takeBytes(bytes, bytes.length);
    bytes = newByteQueue();
    transcribeUtterance(pool, host, {
      speaker: "agent",
      callSid: host.callSid,
      streamSid: host.streamSid,
      mulaw,
      pcm: alawmulaw.mulaw.decode(mulaw),
      sampleRate: 8000,
      startedAt,
      durationMs: mulaw.length / bytesPerMs,
    });
  };
  return {
    played(at, audio) {
      if (audio.length === 0) return;
      // A long utterance is handed over in parts; after a silence the caller could have answered, a new one begins.
      if (bytes.length > 0 && (at - startedAt >= maxUtteranceMs || at - until >= quietAgentMs)) end();
      if (bytes.length === 0) startedAt = at;
      else
        for (let gap = Math.round((at - until) * bytesPerMs); gap > 0; gap -= silence.length) {
          pushBytes(bytes, silence.subarray(0, Math.min(gap, silence.length)));
        }
      pushBytes(bytes, audio);
      until = at + audio.length / bytesPerMs;
    },
    caller(now) {
      if (now === speaking) return;
      speaking = now;
      end();
    },
    boundary: end,
  };
}

/** The timeline's note `name` about an utterance of `host`'s: `stream.<name>` with the stream's sid, or `caller.<name>`. */
const noteOf = (host: UtteranceHost, name: string, detail: Record<string, unknown>) =>
  host.timeline(
    host.speaker === "agent" ? `stream.${name}` : `caller.${name}`,
    host.streamSid === null ? detail : { sid: host.streamSid, ...detail },
  );

/** The utterance goes to the transcriber; its words are applied at once, or when they come (see `settle`). */
export function transcribeUtterance(pool: TranscriberPool, host: UtteranceHost, audio: AgentAudio): void {
  if (pool.pending >= maxPendingTranscriptions) {
    noteOf(host, "transcription-skipped", { pending: pool.pending });
    return;
  }
  let result: string | Promise<string>;
  try {
    result = pool.transcriber.transcribe(audio);
  } catch (error) {
    apply(host, audio, { error: messageOf(error) });
    return;
  }
  if (typeof result === "string") {
    apply(host, audio, { text: result });
    return;
  }
  pool.pending++;
  const settled = Promise.resolve(result).then(
    (text): Outcome =>
      typeof text === "string" ? { text } : { error: `the transcriber answered ${typeof text}, not text` },
    (error: unknown): Outcome => ({ error: messageOf(error) }),
  );
  void settled.then(() => pool.pending--);
  settle(pool, host, audio, settled);
}

/**
 * Virtual clock: the clock waits for the transcriber (at most its `timeoutMs` of real time), so its words land
 * at the instant the utterance ended, run after run; later words are left out. Real clock: nothing waits, and
 * the words are applied in an event of their own when they come.
 */
function settle(
  pool: TranscriberPool,
  host: UtteranceHost,
  audio: AgentAudio,
  settled: Promise<Outcome>,
): void {
  const label = `${host.speaker} transcription ${host.streamSid ?? host.callSid}`;
  if (host.clockMode() !== "virtual") {
    void settled.then((outcome) =>
      host.scheduler.after(0, eventClass.input, label, () => apply(host, audio, outcome)),
    );
    return;
  }
  const timeoutMs = pool.transcriber.timeoutMs ?? defaultTranscriberTimeoutMs;
  host.scheduler.after(0, eventClass.input, label, async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    });
    const outcome = await Promise.race([settled, late]);
    clearTimeout(timer);
    if (outcome) apply(host, audio, outcome);
    else noteOf(host, "transcription-late", { waitedMs: timeoutMs });
  });
}

function apply(host: UtteranceHost, audio: AgentAudio, outcome: Outcome): void {
  if ("error" in outcome) {
    noteOf(host, "transcription-failed", { error: outcome.error });
    return;
  }
  host.said(outcome.text.trim(), audio.startedAt, audio.durationMs);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
