// What a webhook dispatcher keeps: its settings and parts, the queued and in-flight deliveries, and its counters.
import type { CookieJars, OutboundRequest } from "./contract.js";
import type { DeliveryLog } from "./delivery-log.js";
import type { HostQueues } from "./host-queues.js";
import type { Transport } from "./transport.js";
import type { WebhookOptions } from "./webhook-options.js";

/** The part of the sandbox clock the dispatcher needs: retries wait on it. */
export interface WebhookClock {
  now(): number;
  schedule(at: number, task: () => void | Promise<void>): { readonly id: number };
  cancel(handle: { readonly id: number }): void;
}

/** One queued callback, from its first attempt to its last. */
export interface Job {
  id: string;
  request: OutboundRequest;
  /** The receiving `host:port`: its turn, its slots and its queue bound. */
  host: string;
  key: string | null;
  attempt: number;
  generation: number;
}

/** The dispatcher's state: one per dispatcher, read and changed by the callback queue and markup fetches. */
export interface DispatcherState {
  readonly options: Readonly<Required<WebhookOptions>>;
  readonly clock: WebhookClock;
  readonly userAgent: string;
  readonly elapsed: () => number;
  readonly log: DeliveryLog;
  readonly transport: Transport;
  readonly cookieJars: CookieJars | undefined;
  nextDelivery: number;
  /** Bumped by each clear: what was queued or in flight before it is not logged or retried. */
  generation: number;
  readonly ready: HostQueues<Job>;
  /** Per ordering key: the deliveries not yet finished, the head being the one allowed to go. */
  readonly lanes: Map<string, Job[]>;
  readonly retryTimers: Map<Job, { readonly id: number }>;
  /** Per host: deliveries accepted and not finished yet (waiting, in flight or waiting to retry). */
  readonly pendingByHost: Map<string, number>;
  inFlight: number;
  inFlightRequests: number;
  queued: number;
  delivered: number;
  failed: number;
  idleWaiters: (() => void)[];
}

export const mintId = (s: DispatcherState) => `WH${(++s.nextDelivery).toString(16).padStart(32, "0")}`;

export const isIdle = (s: DispatcherState) =>
  s.ready.size === 0 && s.inFlight === 0 && s.inFlightRequests === 0;

/** Resolves the `idle()` promises once nothing is ready or in flight. */
export function wakeIdle(s: DispatcherState): void {
  if (!isIdle(s) || s.idleWaiters.length === 0) return;
  const waiters = s.idleWaiters;
  s.idleWaiters = [];
  for (const resolve of waiters) resolve();
}
