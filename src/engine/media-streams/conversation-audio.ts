// A call's conversation with its <Connect> apps as two channels of audio (the caller, the agent), each sample where the call's clock put it.
import alawmulaw from "alawmulaw";
import {
  loadSpeech,
  mixSamples,
  type SpeechVoice,
  speechRate,
  speechSamples,
} from "../speech/speech-audio.js";
import { audioBlockBytes, type ByteQueue, newByteQueue, pushBytes } from "./stream-bytes.js";

/** The longest conversation kept per call: ten minutes from its start; what comes later is not kept. */
export const conversationMaxMs = 10 * 60_000;
/** Calls whose conversation is kept: the newest 100 (the oldest finished call's goes first). */
export const conversationsKept = 100;
/** Audio every kept conversation holds together (mu-law bytes; silence is not kept): 64 MiB. */
export const conversationBytesKept = 64 * 1024 * 1024;

export type ConversationSide = "caller" | "agent";
/** Why a conversation kept less than it heard: it ran past its length, or every conversation's bytes are in use. */
export type ConversationLimit = "length" | "memory";

/** Audio as it was: `length` mu-law bytes from `offset` in its side's bytes, heard from clock time `start`. */
interface AudioPiece {
  kind: "audio";
  start: number;
  until: number;
  offset: number;
  length: number;
}
/** Words a voice spoke, timed as the call timed them (`fullMs`), heard from `start` until `until`. */
interface SpeechPiece {
  kind: "speech";
  start: number;
  until: number;
  text: string;
  voice: SpeechVoice;
  fullMs: number;
}
type Piece = AudioPiece | SpeechPiece;

interface Side {
  readonly pieces: Piece[];
  /** Every audio piece's bytes, one after another (never taken from: a piece reads its own stretch). */
  readonly bytes: ByteQueue;
}

interface Conversation {
  /** Clock time of sample 0: when the call's first `<Connect>` app started. */
  readonly origin: number;
  /** The latest clock time its audio reached, or its last session ended. */
  until: number;
  /** Sessions open now: while one is, the audio runs up to now. */
  open: number;
  /** The call is over: its conversation is the first to go when room is needed. */
  finished: boolean;
  readonly sides: Record<ConversationSide, Side>;
  readonly reported: Set<ConversationLimit>;
}

/** Something heard on a side that may stop early (an utterance cut short): `cut(at)` ends it at clock time `at`. */
export interface HeardPiece {
  cut(at: number): void;
}

export interface ConversationAudio {
  /** A `<Connect>` app starts on the call at `at`; the call's first one is sample 0. */
  open(callSid: string, at: number): void;
  /** An app's session is over at `at`: words still sounding on either side stop there. */
  close(callSid: string, at: number): void;
  /** The call is over. */
  finish(callSid: string): void;
  /** Audio heard on a side from `at` as it was (mu-law); pieces back to back join up. */
  audio(callSid: string, side: ConversationSide, at: number, bytes: Uint8Array): void;
  /** Audio or words heard on a side from `start` that may be cut short later. */
  heard(
    callSid: string,
    side: ConversationSide,
    start: number,
    what: { bytes: Uint8Array } | { text: string; voice: SpeechVoice; fullMs: number },
  ): HeardPiece | undefined;
  /** The conversation's two channels (caller, agent) as 8 kHz samples, up to `now` while an app is on. */
  samples(callSid: string, now: number): Promise<[Int16Array, Int16Array] | undefined>;
  has(callSid: string): boolean;
  /** Forgets every conversation (sandbox reset). */
  clear(): void;
}

const newSide = (): Side => ({ pieces: [], bytes: newByteQueue() });
const heldBytes = (c: Conversation) =>
  (c.sides.caller.bytes.blocks.length + c.sides.agent.bytes.blocks.length) * audioBlockBytes;
/** Clock time to a sample of the conversation (times fall on eighths of a millisecond: one sample each). */
const sampleAt = (c: Conversation, at: number) => Math.round(((at - c.origin) * speechRate) / 1000);

/** `limited`: told once per conversation and reason when it keeps less than it hears. */
export function createConversationAudio(
  limited: (callSid: string, reason: ConversationLimit) => void = () => undefined,
): ConversationAudio {
  const byCall = new Map<string, Conversation>();
  let held = 0;

  const report = (callSid: string, c: Conversation, reason: ConversationLimit) => {
    if (c.reported.has(reason)) return;
    c.reported.add(reason);
    limited(callSid, reason);
  };
  const drop = (callSid: string) => {
    const c = byCall.get(callSid);
    if (!c) return;
    held -= heldBytes(c);
    byCall.delete(callSid);
  };
  /** The oldest finished conversation other than `keep`'s (Map order is the order they began). */
  const oldestFinished = (keep?: string) => {
    for (const [sid, c] of byCall) if (c.finished && sid !== keep) return sid;
    return undefined;
  };
  /** Room for `bytes` more: finished conversations go, oldest first, until they fit; false when they cannot. */
  const makeRoom = (callSid: string, bytes: number) => {
    while (held + bytes + audioBlockBytes > conversationBytesKept) {
      const oldest = oldestFinished(callSid);
      if (oldest === undefined) return false;
      drop(oldest);
    }
    return true;
  };
  /** What of `bytes` from `at` fits in the conversation's length (the rest is not kept). */
  const fitted = (callSid: string, c: Conversation, at: number, bytes: Uint8Array) => {
    const room = Math.floor(((c.origin + conversationMaxMs - at) * speechRate) / 1000);
    if (room >= bytes.length) return bytes;
    report(callSid, c, "length");
    return bytes.subarray(0, Math.max(0, room));
  };
  const keepBytes = (callSid: string, c: Conversation, side: Side, bytes: Uint8Array) => {
    if (!makeRoom(callSid, bytes.length)) {
      report(callSid, c, "memory");
      return false;
    }
    const before = side.bytes.blocks.length;
    pushBytes(side.bytes, bytes);
    held += (side.bytes.blocks.length - before) * audioBlockBytes;
    return true;
  };

  return {
    open(callSid, at) {
      const c = byCall.get(callSid);
      if (c) {
        c.open++;
        return;
      }
      while (byCall.size >= conversationsKept) drop(oldestFinished() ?? byCall.keys().next().value!);
      byCall.set(callSid, {
        origin: at,
        until: at,
        open: 1,
        finished: false,
        sides: { caller: newSide(), agent: newSide() },
        reported: new Set(),
      });
    },
    close(callSid, at) {
      const c = byCall.get(callSid);
      if (!c || c.open === 0) return;
      c.open--;
      c.until = Math.max(c.until, Math.min(at, c.origin + conversationMaxMs));
      if (c.open > 0) return;
      for (const side of Object.values(c.sides)) {
        for (const piece of side.pieces) if (piece.until > at) piece.until = Math.max(piece.start, at);
      }
    },
    finish(callSid) {
      const c = byCall.get(callSid);
      if (c) c.finished = true;
    },
    audio(callSid, sideName, at, bytes) {
      const c = byCall.get(callSid);
      if (!c || bytes.length === 0) return;
      const kept = fitted(callSid, c, at, bytes);
      const side = c.sides[sideName];
      const offset = side.bytes.length;
      if (kept.length === 0 || !keepBytes(callSid, c, side, kept)) return;
      const until = at + (kept.length * 1000) / speechRate;
      c.until = Math.max(c.until, until);
      const last = side.pieces.at(-1);
      if (last?.kind === "audio" && last.until === at && last.offset + last.length === offset) {
        last.length += kept.length;
        last.until = until;
      } else side.pieces.push({ kind: "audio", start: at, until, offset, length: kept.length });
    },
    heard(callSid, sideName, start, what) {
      const c = byCall.get(callSid);
      if (!c) return undefined;
      const side = c.sides[sideName];
      let piece: Piece;
      if ("bytes" in what) {
        const kept = fitted(callSid, c, start, what.bytes);
        const offset = side.bytes.length;
        if (kept.length === 0 || !keepBytes(callSid, c, side, kept)) return undefined;
        piece = {
          kind: "audio",
          start,
          until: start + (kept.length * 1000) / speechRate,
          offset,
          length: kept.length,
        };
      } else {
        if (start >= c.origin + conversationMaxMs) {
          report(callSid, c, "length");
          return undefined;
        }
        piece = { kind: "speech", start, until: start + what.fullMs, ...what };
      }
      side.pieces.push(piece);
      return {
        cut(at) {
          if (at < piece.until) piece.until = Math.max(piece.start, at);
        },
      };
    },
    async samples(callSid, now) {
      const c = byCall.get(callSid);
      if (!c) return undefined;
      if (Object.values(c.sides).some((s) => s.pieces.some((p) => p.kind === "speech"))) await loadSpeech();
      const end = Math.min(c.origin + conversationMaxMs, c.open > 0 ? Math.max(c.until, now) : c.until);
      const length = Math.max(0, sampleAt(c, end));
      const caller = renderSide(c, c.sides.caller, new Int16Array(length));
      const agent = renderSide(c, c.sides.agent, new Int16Array(length));
      return [caller, agent];
    },
    has: (callSid) => byCall.has(callSid),
    clear() {
      byCall.clear();
      held = 0;
    },
  };
}

/** Every piece of a side mixed into `target` at its place. */
function renderSide(c: Conversation, side: Side, target: Int16Array): Int16Array {
  for (const piece of side.pieces) {
    const first = sampleAt(c, piece.start);
    const count = Math.max(0, sampleAt(c, piece.until) - first);
    if (piece.kind === "speech") {
      mixSamples(target, first, speechSamples(piece.text, piece.voice, piece.fullMs).subarray(0, count));
      continue;
    }
    // The piece's bytes, block by block: every block but the last is full, so byte n is in block n / size.
    const length = Math.min(piece.length, count);
    for (let done = 0; done < length; ) {
      const at = piece.offset + done;
      const block = side.bytes.blocks[Math.floor(at / audioBlockBytes)]!;
      const from = at % audioBlockBytes;
      const n = Math.min(length - done, audioBlockBytes - from);
      mixSamples(target, first + done, alawmulaw.mulaw.decode(block.subarray(from, from + n)));
      done += n;
    }
  }
  return target;
}
