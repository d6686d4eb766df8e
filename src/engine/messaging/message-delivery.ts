// Where an outbound message moves from queued to delivered: sending, sent and the handset's receipt on the clock.
import type { Message } from "../../domain/message.js";
import { channelOf } from "../../domain/message-address.js";
import { eventClass } from "../time/scheduler.js";
import { whatsappErrors, whatsappSessionOpen } from "./message-senders.js";
import { type MessageFlights, moveMessage, sendStatusCallback, settleMessage } from "./message-status.js";

/** Delivery steps after creation: sending at once, sent after 500 ms, the handset's receipt after 2 s. */
export const messageTiming = { sendingMs: 0, sentMs: 500, deliveredMs: 2000 } as const;

/** Destinations with fixed delivery outcomes (listed in docs/engine.md): carrier failure, and an unreachable handset. */
export const messageTestNumbers: Record<
  string,
  { status: "failed" | "undelivered"; code: number; text: string }
> = {
  "+15005550001": { status: "failed", code: 30006, text: "Landline or unreachable carrier" },
  "+15005550002": { status: "undelivered", code: 30003, text: "Unreachable destination handset" },
};

/** Runs `task` `delay` ms from now, as a continuation on the scheduler. */
export const stepAfter = (
  flights: MessageFlights,
  delay: number,
  label: string,
  task: () => void | Promise<void>,
) => {
  flights.services.scheduler.after(delay, eventClass.continuation, label, task);
};

/**
 * Starts delivery of a queued (or, at its SendAt, a scheduled) outbound message; once per message. A message
 * stored `failed` at creation (the markup sent it on a wallet that could not cover it) is not delivered: its
 * status callback hears of the failure.
 */
export function startMessage(flights: MessageFlights, message: Message) {
  if (message.status === "failed") {
    const error = { code: message.error_code ?? 0, text: message.error_message ?? "" };
    stepAfter(flights, 0, `failed ${message.sid}`, () =>
      sendStatusCallback(flights.services, message, "failed", error),
    );
    return;
  }
  // An inbound message is never delivered, and is not kept among those under way (they would grow without end).
  if (message.direction === "inbound" || flights.started.has(message.sid)) return;
  flights.started.add(message.sid);
  if (message.status === "scheduled" && message.send_at !== null) {
    const { ctx, scheduler } = flights.services;
    scheduler.at(message.send_at, eventClass.continuation, `scheduled ${message.sid}`, () => {
      const current = ctx.store.messages.get(message.sid);
      if (current?.status !== "scheduled") {
        settleMessage(flights, message.sid);
        return;
      }
      deliverMessage(flights, moveMessage(flights, message.sid, "queued") ?? current);
    });
    return;
  }
  deliverMessage(flights, message);
}

/** queued -> sending -> sent -> delivered (or failed, or undelivered, as the destination decides). */
export function deliverMessage(flights: MessageFlights, message: Message) {
  const { ctx } = flights.services;
  const outcome = messageTestNumbers[message.to];
  stepAfter(flights, messageTiming.sendingMs, `sending ${message.sid}`, () => {
    if (!moveMessage(flights, message.sid, "sending")) return;
    if (outcome?.status === "failed") {
      moveMessage(flights, message.sid, "failed", outcome);
      return;
    }
    // WhatsApp: a free-form message needs the user to have written within 24 hours; a template does not.
    if (channelOf(message.to) === "whatsapp" && !message.content_sid && !whatsappSessionOpen(ctx, message)) {
      moveMessage(flights, message.sid, "failed", whatsappErrors.outsideWindow);
      return;
    }
    stepAfter(flights, messageTiming.sentMs, `sent ${message.sid}`, () => {
      if (!moveMessage(flights, message.sid, "sent")) return;
      stepAfter(flights, messageTiming.deliveredMs, `delivered ${message.sid}`, () => {
        if (outcome) moveMessage(flights, message.sid, "undelivered", outcome);
        else moveMessage(flights, message.sid, "delivered");
      });
    });
  });
}
