// Messages over time: the messages under way and the wiring; delivery in message-delivery.ts, arrivals in message-inbound.ts.
import type { Message } from "../../domain/message.js";
import type { EngineServices } from "../context/engine-services.js";
import { startMessage } from "./message-delivery.js";
import { type InboundMessage, receiveMessage } from "./message-inbound.js";
import type { MessageFlights } from "./message-status.js";

export interface MessageLifecycle {
  /** Starts delivery of a queued (or, at its SendAt, a scheduled) outbound message. */
  start(message: Message): void;
  /** A message arrives at one of the sandbox's numbers: recorded, posted to sms_url, replies sent. */
  receive(input: InboundMessage): Message;
  reset(): void;
  /** How many messages are between start and a final status (delivered, undelivered, failed, canceled). */
  inFlight(): number;
}

/** Status changes and their callbacks: message-status.ts (moveMessage). */
export function createMessageLifecycle(services: EngineServices): MessageLifecycle {
  const flights: MessageFlights = { services, started: new Set() };
  return {
    start: (message) => startMessage(flights, message),
    receive: (input) => receiveMessage(flights, input),
    reset() {
      // The engine's reset clears the scheduler, and with it every pending step.
      flights.started = new Set();
    },
    inFlight: () => flights.started.size,
  };
}
