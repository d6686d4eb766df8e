// The webhook dispatcher: signs, sends, retries and logs every request to a customer's URL, off the API's path.
import { clearDeliveries, enqueue } from "./callback-queue.js";
import type { CookieJars, WebhookSender } from "./contract.js";
import { createDeliveryLog, type DeliveryAttempt, type DeliveryFilter } from "./delivery-log.js";
import { type DispatcherState, isIdle, type Job, type WebhookClock } from "./dispatcher-state.js";
import { createHostQueues } from "./host-queues.js";
import { createReceiverRegistry, type WebhookReceiver } from "./in-process-receivers.js";
import { fetchMarkup } from "./markup-fetch.js";
import { fetchMedia, type MediaRequest, type MediaResult } from "./media-fetch.js";
import { createTransport } from "./transport.js";
import { checkOptions, type WebhookOptions } from "./webhook-options.js";

export interface DispatcherDependencies {
  clock: WebhookClock;
  /** Default: the global `fetch`, looked up per request so MSW's interception applies. */
  fetch?: typeof fetch;
  userAgent?: string;
  /** Keeps the cookies apps set, for requests that name a jar; without it no cookies are kept or sent. */
  cookies?: CookieJars;
  /** Stopwatch for latency figures only; default `performance.now` (the sandbox passes its clock's). */
  elapsed?: () => number;
}

export interface DispatcherStats {
  /** Callbacks waiting for a slot or for an earlier delivery with the same ordering key. */
  queued: number;
  inFlight: number;
  /** Callbacks waiting on the clock for their next attempt. */
  waitingRetry: number;
  /** Deliveries finished with a 2xx/3xx answer, since the last clear. */
  delivered: number;
  /** Deliveries finished without one (4xx, or out of attempts), since the last clear. */
  failed: number;
}

export interface WebhookDispatcher extends WebhookSender {
  /** Every attempt logged so far (oldest first, bounded by `logLimit`). */
  readonly deliveries: DeliveryAttempt[];
  list(filter?: DeliveryFilter): DeliveryAttempt[];
  /** Answer deliveries to URLs starting with `urlPrefix` in-process; returns a function that removes it. */
  register(urlPrefix: string, receiver: WebhookReceiver): () => void;
  /** GETs media (audio a <Play> names) as bytes through the same receivers and fetch; unlogged, never rejects. */
  fetchMedia(request: Omit<MediaRequest, "userAgent">): Promise<MediaResult>;
  stats(): DispatcherStats;
  /** True while a delivery is ready to go or in flight (what `idle()` waits out). */
  busy(): boolean;
  /** Attempts pushed out of the bounded log since the last clear. */
  readonly evicted: number;
  readonly options: Readonly<Required<WebhookOptions>>;
  /** Empties the log and the kept cookies, drops queued deliveries and pending retries (requests in flight finish unlogged). */
  clear(): void;
}

export function createWebhookDispatcher(
  deps: DispatcherDependencies,
  webhookOptions: WebhookOptions = {},
): WebhookDispatcher {
  const options = Object.freeze(checkOptions(webhookOptions));
  const receivers = createReceiverRegistry();
  const s: DispatcherState = {
    options,
    clock: deps.clock,
    userAgent: deps.userAgent ?? "TwilioProxy/1.1 (voice-sandbox)",
    elapsed: deps.elapsed ?? (() => performance.now()),
    log: createDeliveryLog(options.logLimit),
    transport: createTransport(receivers, () => deps.fetch ?? globalThis.fetch),
    cookieJars: deps.cookies,
    nextDelivery: 0,
    generation: 0,
    ready: createHostQueues<Job>((job) => job.host, options.perHostConcurrency),
    lanes: new Map(),
    retryTimers: new Map(),
    pendingByHost: new Map(),
    inFlight: 0,
    inFlightRequests: 0,
    queued: 0,
    delivered: 0,
    failed: 0,
    idleWaiters: [],
  };
  const { log } = s;

  return {
    request: (request) => fetchMarkup(s, request),
    enqueue: (request) => enqueue(s, request),
    idle() {
      if (isIdle(s)) return Promise.resolve();
      return new Promise<void>((resolve) => s.idleWaiters.push(resolve));
    },
    get deliveries() {
      return log.list();
    },
    list: (filter) => log.list(filter),
    busy: () => !isIdle(s),
    register: (urlPrefix, receiver) => receivers.register(urlPrefix, receiver),
    fetchMedia: (request) =>
      fetchMedia(receivers, () => deps.fetch ?? globalThis.fetch, { ...request, userAgent: s.userAgent }),
    stats: () => ({
      queued: s.queued,
      inFlight: s.inFlight + s.inFlightRequests,
      waitingRetry: s.retryTimers.size,
      delivered: s.delivered,
      failed: s.failed,
    }),
    get evicted() {
      return log.evicted;
    },
    options,
    clear: () => clearDeliveries(s),
  };
}
