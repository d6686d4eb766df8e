// Usage billing: calls per started minute, messages per segment, TTS per character, recordings and transcriptions per
// started minute recorded, charged to the wallet ledger.
import type { Call } from "../../domain/call.js";
import {
  type Decimal,
  formatDecimal,
  multiplyDecimal,
  negateDecimal,
  parseDecimal,
  sumDecimals,
} from "../../domain/decimal.js";
import type { Message } from "../../domain/message.js";
import type { Recording } from "../../domain/recording.js";
import type { Transcription } from "../../domain/transcription.js";
import type { EngineContext } from "../context/context.js";
import { balanceOf, charge } from "./ledger.js";
import { findRate } from "./rates.js";

/** Whole cents for a cost, rounded up: the ledger never takes less than the priced usage. */
export function centsOf(cost: Decimal): number {
  if (cost.units <= 0n) return 0;
  const scaled = cost.units * 100n;
  const divisor = 10n ** BigInt(cost.scale);
  return Number((scaled + divisor - 1n) / divisor);
}

/** Twilio's price strings: negative for a charge, five decimals ("-0.01300"). */
export const priceString = (cost: Decimal) => formatDecimal(negateDecimal(cost), 5);

/** Billed minutes: every started minute of talk, at least one for an answered call. */
export function billedMinutes(call: Call): number {
  if (call.answered_at === null) return 0;
  return Math.max(1, Math.ceil((call.duration ?? 0) / 60));
}

/**
 * A ledger description as one string. A template literal of several parts is a tree of V8 cons strings, one
 * per part joined (~200 bytes for a message's description, against ~85 joined), and every ledger row keeps
 * its description: at a million messages that tree was the largest thing a message left on the heap.
 */
const describe = (...parts: (string | number)[]): string => parts.join("");

/**
 * Prices a finished call by the voice rate of its To number (the destination outbound; the account's own
 * number inbound), charges the wallet (category voice), and charges the call's TTS (category tts).
 * Returns the call's price string, or null for a call never answered (Twilio bills nothing for it).
 */
export function billCall(ctx: EngineContext, call: Call): string | null {
  const minutes = billedMinutes(call);
  let price: string | null = null;
  if (minutes > 0) {
    const rate = findRate(ctx, "voice", call.to);
    const cost = rate ? multiplyDecimal(parseDecimal(rate.price), minutes) : parseDecimal("0");
    price = priceString(cost);
    const cents = centsOf(cost);
    if (cents > 0) {
      charge(ctx, call.account_sid, {
        category: "voice",
        amount_cents: cents,
        description: describe(call.direction, " call ", call.from, " -> ", call.to, ", ", minutes, " min"),
        resource_type: "phone_call",
        resource_sid: call.sid,
      });
    }
  }
  const tts = ctx.store.ttsEvents.where("call", call.sid);
  if (tts.length > 0) {
    const cost = negateDecimal(sumDecimals(tts.map((t) => t.price)));
    const cents = centsOf(cost);
    if (cents > 0) {
      charge(ctx, call.account_sid, {
        category: "tts",
        amount_cents: cents,
        description: describe(
          "text-to-speech on call ",
          call.sid,
          ", ",
          tts.reduce((n, t) => n + t.characters, 0),
          " characters",
        ),
        resource_type: "phone_call",
        resource_sid: call.sid,
      });
    }
  }
  return price;
}

/** What prices a message: its direction, its two ends and its segments (an MMS's body counts as one at least). */
export type PricedMessage = Pick<Message, "direction" | "from" | "to" | "num_segments">;

/**
 * A message's price: per segment by the SMS rate of the number on the far side (the sender inbound, the
 * destination otherwise), else of its To. Admission holds it (message-admission.ts) and `billMessage` charges it.
 */
export function messageCost(ctx: EngineContext, message: PricedMessage): Decimal {
  const rated = message.direction === "inbound" ? message.from : message.to;
  const rate = findRate(ctx, "sms", rated) ?? findRate(ctx, "sms", message.to);
  return rate ? multiplyDecimal(parseDecimal(rate.price), message.num_segments) : parseDecimal("0");
}

/** Prices a message (`messageCost`) and charges it (category sms). */
export function billMessage(ctx: EngineContext, message: Message): string {
  const cost = messageCost(ctx, message);
  const cents = centsOf(cost);
  if (cents > 0) {
    charge(ctx, message.account_sid, {
      category: "sms",
      amount_cents: cents,
      description: describe(
        message.direction,
        " message ",
        message.from,
        " -> ",
        message.to,
        ", ",
        message.num_segments,
        " segment(s)",
      ),
      resource_type: "message",
      resource_sid: message.sid,
    });
  }
  return priceString(cost);
}

/** An account may call only while it is active and its wallet holds credit. */
export function hasCredit(ctx: EngineContext, accountSid: string): boolean {
  return balanceOf(ctx, accountSid) > 0;
}

/**
 * Prices a finished recording per started minute by the recording rate of its call's To number (as calls are
 * priced), and charges it (category recording). Null when no rate applies: nothing is priced.
 */
export function billRecording(ctx: EngineContext, recording: Recording): string | null {
  return billRecorded(ctx, "recording", recording, recording.sid, "recording");
}

/** Prices a completed transcription per started minute of its recording (category transcription). */
export function billTranscription(ctx: EngineContext, transcription: Transcription): string | null {
  const recording = ctx.store.recordings.get(transcription.recording_sid);
  if (!recording) return null;
  return billRecorded(ctx, "transcription", recording, transcription.sid, "transcription");
}

function billRecorded(
  ctx: EngineContext,
  category: "recording" | "transcription",
  recording: Recording,
  resourceSid: string,
  resourceType: string,
): string | null {
  const call = ctx.store.calls.get(recording.call_sid);
  const rate = call ? findRate(ctx, category, call.to) : undefined;
  if (!rate) return null;
  const minutes = Math.max(1, Math.ceil((recording.duration ?? 0) / 60));
  const cost = multiplyDecimal(parseDecimal(rate.price), minutes);
  const cents = centsOf(cost);
  if (cents > 0) {
    charge(ctx, recording.account_sid, {
      category,
      amount_cents: cents,
      description: describe(
        category,
        " ",
        resourceSid,
        " of call ",
        recording.call_sid,
        ", ",
        minutes,
        " min",
      ),
      resource_type: resourceType,
      resource_sid: resourceSid,
    });
  }
  return priceString(cost);
}
