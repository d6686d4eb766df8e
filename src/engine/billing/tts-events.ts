// TTS events: one record per text-to-speech use, priced by the TTS rate sheet; the call engine creates them.
import type { TtsEvent } from "../../domain/carrier-records.js";
import { formatDecimal, multiplyDecimal, negateDecimal, parseDecimal } from "../../domain/decimal.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { findRate } from "./rates.js";

export interface NewTtsEvent {
  accountSid: string;
  callSid?: string | null | undefined;
  voice: string;
  characters: number;
  /** The number whose TTS rate applies (usually the call's destination); without one, or without a rate, it is free. */
  ratedNumber?: string | undefined;
}

/** Records a TTS use with its price: characters times the per-character rate, negative as a charge (like call prices). */
export function recordTtsEvent(ctx: EngineContext, input: NewTtsEvent): TtsEvent {
  return ctx.store.transact(() => {
    const rate = input.ratedNumber ? findRate(ctx, "tts", input.ratedNumber) : undefined;
    const cost = rate ? multiplyDecimal(parseDecimal(rate.price), input.characters) : parseDecimal("0");
    const event = ctx.store.ttsEvents.insert({
      sid: ctx.ids.mint("TT"),
      account_sid: input.accountSid,
      call_sid: input.callSid ?? null,
      voice: input.voice,
      characters: input.characters,
      price: formatDecimal(negateDecimal(cost), 6),
      price_unit: rate?.currency ?? "USD",
      created_at: ctx.clock.now(),
    });
    recordEvent(ctx, "tts_event.created", input.accountSid, "tts_event", event);
    return event;
  });
}
