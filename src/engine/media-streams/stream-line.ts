// The caller's line as a media-stream app hears it: noise on the caller's audio, frames lost, frames delivered late (seeded).
import alawmulaw from "alawmulaw";
import { z } from "zod";
import { createIdGenerator } from "../../domain/ids.js";
import { durationField } from "../time/duration.js";
import { realNow } from "./agent-turns.js";

/** The most jitter a line may have: frames a second late are as bad as a line gets. */
export const maxJitterMs = 1000;

export const lineConditionsSchema = z
  .strictObject({
    /** White noise added to the caller's audio, at this RMS level in dBFS (-90 to 0), e.g. -40. */
    noise: z
      .number({ error: "noise is a level in dBFS, a number from -90 to 0" })
      .min(-90, "noise is a level in dBFS, from -90 to 0")
      .max(0, "noise is a level in dBFS, from -90 to 0")
      .optional(),
    /** The share of the caller's frames lost on the way (0 to 1): not sent, their sequence numbers skipped. */
    drop: z
      .number({ error: "drop is the share of frames lost, a number from 0 to 1" })
      .min(0, "drop is the share of frames lost, from 0 to 1")
      .max(1, "drop is the share of frames lost, from 0 to 1")
      .optional(),
    /** Real clock: each caller frame leaves up to this much later (0 to 1s), in order, its timestamp unchanged. */
    jitter: durationField
      .refine((ms) => ms >= 0 && ms <= maxJitterMs, `jitter is at most ${maxJitterMs} ms`)
      .optional(),
    /** Seeds the line's randomness (default 1): the same seed, the same frames. */
    seed: z.number().int("seed is a whole number").min(0).max(0xffffffff).optional(),
  })
  .describe("The caller's line as a media-stream app hears it: noise, lost frames, jitter.");
export type LineConditions = z.output<typeof lineConditionsSchema>;
export type LineConditionsInput = z.input<typeof lineConditionsSchema>;

/** One stream's line: what it does to each caller frame, and the frames it holds back (jitter). */
export interface Line {
  /** Whether this caller frame is lost. */
  lost(): boolean;
  /** The frame with the line's noise on it (base64 mu-law in and out). */
  noisy(payload: string): string;
  /** Real ms this frame is held back (0: it leaves now). */
  delayMs(): number;
  /** Frames lost so far. */
  dropped: number;
}

export function createLine(conditions: LineConditions): Line {
  const ids = createIdGenerator(conditions.seed ?? 1);
  const random = () => ids.random();
  // Uniform noise in [-w, w] has an RMS of w / sqrt(3).
  const width = conditions.noise === undefined ? 0 : Math.sqrt(3) * 32767 * 10 ** (conditions.noise / 20);
  const line: Line = {
    dropped: 0,
    lost() {
      if (!conditions.drop || random() >= conditions.drop) return false;
      line.dropped++;
      return true;
    },
    noisy(payload) {
      if (width === 0) return payload;
      const samples = alawmulaw.mulaw.decode(Buffer.from(payload, "base64"));
      for (let i = 0; i < samples.length; i++) {
        const v = samples[i]! + Math.round((random() * 2 - 1) * width);
        samples[i] = Math.max(-32768, Math.min(32767, v));
      }
      return Buffer.from(alawmulaw.mulaw.encode(samples)).toString("base64");
    },
    delayMs: () => (conditions.jitter ? random() * conditions.jitter : 0),
  };
  return line;
}

/**
 * Real clock: messages held back by jitter leave in order, each when it is due (a frame behind a late one
 * waits for it: frames come bunched); a message that is not media sends what is held first.
 */
export interface LineQueue {
  hold(message: string, delayMs: number, send: (message: string) => void): void;
  /** Sends everything held now (a mark, dtmf or stop must follow the frames before it). */
  flush(): void;
  /** Drops what is held (the stream ended). */
  drop(): void;
}

export function createLineQueue(): LineQueue {
  const held: { message: string; due: number; send: (message: string) => void }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastDue = 0;
  const release = () => {
    timer = undefined;
    const now = realNow();
    while (held.length > 0 && held[0]!.due <= now) {
      const next = held.shift()!;
      next.send(next.message);
    }
    if (held.length > 0) timer = setTimeout(release, Math.max(0, held[0]!.due - now));
  };
  return {
    hold(message, delayMs, send) {
      const due = Math.max(lastDue, realNow() + delayMs);
      lastDue = due;
      held.push({ message, due, send });
      if (timer === undefined) timer = setTimeout(release, Math.max(0, due - realNow()));
    },
    flush() {
      clearTimeout(timer);
      timer = undefined;
      for (const next of held.splice(0)) next.send(next.message);
    },
    drop() {
      clearTimeout(timer);
      timer = undefined;
      held.length = 0;
    },
  };
}
