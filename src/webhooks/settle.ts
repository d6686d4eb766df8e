// Lets a test wait for the webhooks its clock moves caused: run what is due, then await every delivery in flight.
import type { WebhookSender } from "./contract.js";

export interface SettleClock {
  /** Virtual: runs the timers due within `ms`. Real: waits `ms`. */
  advance(ms: number): Promise<void>;
}

/**
 * `settle()` runs the timers due now, waits until no webhook is queued or in flight, and repeats while
 * that work scheduled more at the same instant (a markup answer that queues a status callback).
 * Retries wait on the clock, so under a virtual clock they go out when the test advances time.
 */
export function createSettle(clock: SettleClock, webhooks: WebhookSender & { busy(): boolean }) {
  return async (maxRounds = 1000): Promise<void> => {
    for (let round = 0; round < maxRounds; round++) {
      await clock.advance(0);
      if (!webhooks.busy()) return;
      await webhooks.idle();
    }
  };
}
