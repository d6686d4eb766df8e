// A message's status changes: the record moves (charged once sent, its hold let go), its event is kept, its status callback posted.
import { type Message, type MessageStatus, messageStatuses } from "../../domain/message.js";
import { billMessage } from "../billing/billing.js";
import { apiVersion } from "../callbacks/voice-params.js";
import { type EngineServices, sendCallback } from "../context/engine-services.js";
import { recordEvent } from "../context/events.js";

/** The messages under way, held between events (the set is replaced on reset). */
export interface MessageFlights {
  services: EngineServices;
  /** Messages whose delivery is under way: a second start of one does nothing. Each leaves when it settles. */
  started: Set<string>;
}

/**
 * The message is no longer under way (null: the step that found it so stops there). Whatever of its price
 * is still held (it was never charged: canceled, deleted, or failed before `sent`) is let go.
 */
export const settleMessage = (flights: MessageFlights, sid: string) => {
  flights.started.delete(sid);
  flights.services.ctx.holds?.release(sid);
  return null;
};

/** The carrier event each status leaves, named once rather than on every change. */
const eventTypes = Object.fromEntries(
  messageStatuses.map((status) => [status, `message.${status}`]),
) as Record<MessageStatus, string>;

/** "YYMMDDhhmm" in UTC, Twilio's RawDlrDoneDate. */
function dlrDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

/**
 * Moves the message to `status` (a final one settles it); null when it is gone or was canceled meanwhile.
 * Twilio sends no callback for the initial status, one for each change after it.
 */
export function moveMessage(
  flights: MessageFlights,
  sid: string,
  status: MessageStatus,
  error?: { code: number; text: string },
): Message | null {
  const { ctx } = flights.services;
  const current = ctx.store.messages.get(sid);
  if (!current || current.status === "canceled") return settleMessage(flights, sid);
  if (status === "failed" || status === "delivered" || status === "undelivered") settleMessage(flights, sid);
  const message = ctx.store.transact(() => {
    // A new row, as every change stores one; the copy is built whole, then filled in before it is stored.
    const now = ctx.clock.now();
    const next: Message = { ...current, status, updated_at: now };
    if (status === "sent") {
      next.date_sent = now;
      // The charge takes the place of the hold, in the same transaction: the credit is never counted twice.
      next.price = billMessage(ctx, current);
      ctx.holds?.release(sid);
    }
    if (error) {
      next.error_code = error.code;
      next.error_message = error.text;
    }
    const saved = ctx.store.messages.replace(next);
    recordEvent(ctx, eventTypes[status], saved.account_sid, "message", saved);
    return saved;
  });
  sendStatusCallback(flights.services, message, status, error);
  return message;
}

/** Posts the change to the message's StatusCallback, if it has one (RawDlrDoneDate once the handset answered). */
export function sendStatusCallback(
  services: EngineServices,
  message: Message,
  status: MessageStatus,
  error: { code: number; text: string } | undefined,
) {
  if (!message.status_callback) return;
  const params: Record<string, string> = {
    AccountSid: message.account_sid,
    ApiVersion: apiVersion,
    From: message.from,
    MessageSid: message.sid,
    MessageStatus: status,
    SmsSid: message.sid,
    SmsStatus: status,
    To: message.to,
  };
  if (error) params.ErrorCode = String(error.code);
  if (status === "delivered" || status === "undelivered")
    params.RawDlrDoneDate = dlrDate(services.ctx.clock.now());
  sendCallback(services, {
    kind: "message-status",
    url: message.status_callback,
    method: message.status_callback_method,
    params,
    accountSid: message.account_sid,
    messageSid: message.sid,
    orderingKey: message.sid,
  });
}
