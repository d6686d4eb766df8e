// Carrier corrections to billing records: a call's price, a message's status and price, before reconciliation.
import type { Call } from "../../domain/call.js";
import type { Message, MessageStatus } from "../../domain/message.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { withChanges } from "../context/record-changes.js";

export interface CallCorrection {
  /** Negative decimal string (a charge), or "0". */
  price?: string | undefined;
}

export interface MessageCorrection {
  status?: MessageStatus | undefined;
  price?: string | undefined;
}

/** Overrides a call's price. The wallet is not touched: adjust it with a top-up or debit if needed. */
export function correctCall(ctx: EngineContext, call: Call, changes: CallCorrection): Call {
  return ctx.store.transact(() => {
    const updated = ctx.store.calls.replace(withChanges(call, changes, ctx.clock.now()));
    recordEvent(ctx, "phone_call.updated", call.account_sid, "phone_call", updated);
    return updated;
  });
}

/** Corrects a message's status or price; a status change leaves its own event as well. */
export function correctMessage(ctx: EngineContext, message: Message, changes: MessageCorrection): Message {
  return ctx.store.transact(() => {
    const updated = ctx.store.messages.replace(withChanges(message, changes, ctx.clock.now()));
    if (updated.status !== message.status) {
      recordEvent(ctx, "message.status_changed", message.account_sid, "message", updated);
    }
    recordEvent(ctx, "message.updated", message.account_sid, "message", updated);
    return updated;
  });
}
