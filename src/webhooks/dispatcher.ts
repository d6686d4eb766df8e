// The webhook dispatcher: signs, sends, retries and logs every request to a customer's URL, off the API's path.
import {
  type CookieJars,
  maxMarkupBytes,
  type OutboundKind,
  type OutboundRequest,
  type OutboundResult,
  type WebhookSender,
} from "./contract.js";
import {
  type AttemptOutcome,
  createDeliveryLog,
  type DeliveryAttempt,
  type DeliveryFilter,
} from "./delivery-log.js";
import { createHostQueues, hostOf } from "./host-queues.js";
import { createReceiverRegistry, type WebhookReceiver } from "./in-process-receivers.js";
import { computeSignature, signatureHeader, twilioSignatureHeader, urlWithQuery } from "./sign.js";
import { createTransport, type WireResult } from "./transport.js";

/** The part of the sandbox clock the dispatcher needs: retries wait on it. */
export interface WebhookClock {
  now(): number;
  schedule(at: number, task: () => void | Promise<void>): { readonly id: number };
  cancel(handle: { readonly id: number }): void;
}

/** Delivery settings (`createSandbox({ webhooks: {...} })`). */
export interface WebhookOptions {
  /** Real-time limit per request, in ms. Default 15000 (Twilio's webhook timeout). */
  timeoutMs?: number;
  /** Attempts per callback, first try included. Default 3. Markup fetches are tried once. */
  maxAttempts?: number;
  /** Delay before the first retry, in sandbox-clock ms; doubles each retry. Default 1000. */
  backoffMs?: number;
  /** Attempts kept in the delivery log; the oldest fall out first. Default 10000. */
  logLimit?: number;
  /** Callbacks in flight at once across all URLs. Default 64. */
  concurrency?: number;
  /**
   * Callbacks in flight at once to one host (`host:port`). Default 8. Hosts take turns for the free slots,
   * so a slow receiver holds at most this many and delays only its own deliveries.
   */
  perHostConcurrency?: number;
  /**
   * Deliveries one host may have waiting (queued, behind an earlier one of the same call, or waiting to
   * retry). Default 10000. Past it a new callback is not queued: it is logged as failed, so a receiver that
   * never answers cannot make the queue grow without end.
   */
  maxQueuedPerHost?: number;
}

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
  stats(): DispatcherStats;
  /** True while a delivery is ready to go or in flight (what `idle()` waits out). */
  busy(): boolean;
  /** Attempts pushed out of the bounded log since the last clear. */
  readonly evicted: number;
  readonly options: Readonly<Required<WebhookOptions>>;
  /** Empties the log and the kept cookies, drops queued deliveries and pending retries (requests in flight finish unlogged). */
  clear(): void;
}

export const defaultWebhookOptions: Readonly<Required<WebhookOptions>> = Object.freeze({
  timeoutMs: 15_000,
  maxAttempts: 3,
  backoffMs: 1_000,
  logLimit: 10_000,
  concurrency: 64,
  perHostConcurrency: 8,
  maxQueuedPerHost: 10_000,
});

/** Status-type callbacks retry; markup fetches do not (the engine plays the call's fallback instead). */
const retryingKinds: ReadonlySet<OutboundKind> = new Set([
  "call-status",
  "recording-status",
  "transcription",
  "message-status",
  "stream-status",
  "amd-status",
]);

/** Characters of a callback's answer kept in the log; the answer is read only that far (4 bytes a character at most). */
const responseExcerpt = 1024;
const callbackAnswerBytes = responseExcerpt * 4;
/** A markup answer is read one byte past the limit, enough for the parser to refuse it as too large. */
const markupAnswerBytes = maxMarkupBytes + 1;

interface Job {
  id: string;
  request: OutboundRequest;
  /** The receiving `host:port`: its turn, its slots and its queue bound. */
  host: string;
  key: string | null;
  attempt: number;
  generation: number;
}

function checkOptions(options: WebhookOptions): Required<WebhookOptions> {
  const merged = { ...defaultWebhookOptions, ...options };
  const positive = (name: keyof WebhookOptions, integer: boolean) => {
    const value = merged[name];
    if (!(value > 0) || (integer && !Number.isInteger(value))) {
      throw new Error(`webhooks.${name} must be a positive ${integer ? "integer" : "number"}, got ${value}`);
    }
  };
  positive("timeoutMs", false);
  positive("maxAttempts", true);
  positive("logLimit", true);
  positive("concurrency", true);
  positive("perHostConcurrency", true);
  positive("maxQueuedPerHost", true);
  if (!(merged.backoffMs >= 0))
    throw new Error(`webhooks.backoffMs must be 0 or more, got ${merged.backoffMs}`);
  return merged;
}

export function createWebhookDispatcher(
  deps: DispatcherDependencies,
  webhookOptions: WebhookOptions = {},
): WebhookDispatcher {
  const options = Object.freeze(checkOptions(webhookOptions));
  const { clock } = deps;
  const userAgent = deps.userAgent ?? "TwilioProxy/1.1 (voice-sandbox)";
  const elapsed = deps.elapsed ?? (() => performance.now());
  const log = createDeliveryLog(options.logLimit);
  const receivers = createReceiverRegistry();
  const transport = createTransport(receivers, () => deps.fetch ?? globalThis.fetch);
  const cookieJars = deps.cookies;

  let nextDelivery = 0;
  let generation = 0;
  const ready = createHostQueues<Job>((job) => job.host, options.perHostConcurrency);
  /** Per ordering key: the deliveries not yet finished, the head being the one allowed to go. */
  const lanes = new Map<string, Job[]>();
  const retryTimers = new Map<Job, { readonly id: number }>();
  let inFlight = 0;
  let inFlightRequests = 0;
  let queued = 0;
  let delivered = 0;
  let failed = 0;
  let idleWaiters: (() => void)[] = [];

  const mintId = () => `WH${(++nextDelivery).toString(16).padStart(32, "0")}`;

  const isIdle = () => ready.size === 0 && inFlight === 0 && inFlightRequests === 0;
  const wakeIdle = () => {
    if (!isIdle() || idleWaiters.length === 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  /** Builds the signed wire request for one attempt. */
  const prepare = (request: OutboundRequest, id: string) => {
    const method = request.method;
    const url = method === "GET" ? urlWithQuery(request.url, request.params) : request.url;
    const signature = computeSignature(request.authToken, url, method === "GET" ? {} : request.params);
    const headers: Record<string, string> = {
      accept: "*/*",
      "user-agent": userAgent,
      [signatureHeader]: signature,
      [twilioSignatureHeader]: signature,
      "I-Twilio-Idempotency-Token": id,
    };
    // Cookies are not signed (Twilio's signature covers the URL and parameters only).
    const cookie =
      request.cookies && cookieJars ? cookieJars.header(request.cookies, url, clock.now()) : null;
    if (cookie !== null) headers.cookie = cookie;
    let body: string | undefined;
    if (method === "POST") {
      headers["content-type"] = "application/x-www-form-urlencoded; charset=utf-8";
      body = new URLSearchParams(request.params).toString();
    }
    return { method, url, headers, body, signature, cookie };
  };

  const record = (
    job: Pick<Job, "id" | "request" | "attempt">,
    wire: { url: string; signature: string; cookie: string | null },
    at: number,
    result: WireResult,
    latencyMs: number,
    outcome: AttemptOutcome,
    nextAttemptAt: number | null,
  ): DeliveryAttempt => {
    const { request } = job;
    const entry: DeliveryAttempt = {
      id: job.id,
      attempt: job.attempt,
      kind: request.kind,
      method: request.method,
      url: wire.url,
      params: { ...request.params },
      signature: wire.signature,
      idempotencyToken: job.id,
      accountSid: request.accountSid,
      callSid: request.callSid ?? null,
      messageSid: request.messageSid ?? null,
      orderingKey: request.orderingKey ?? null,
      at,
      status: result.kind === "response" ? result.status : null,
      outcome,
      error:
        result.kind === "response" ? (outcome === "success" ? null : `HTTP ${result.status}`) : result.error,
      latencyMs: Math.round(latencyMs * 1000) / 1000,
      cookie: wire.cookie,
      setCookies: result.kind === "response" ? result.setCookies : [],
      responseBody: result.kind === "response" ? result.body.slice(0, responseExcerpt) : null,
      nextAttemptAt,
    };
    log.append(entry);
    if (request.cookies && cookieJars && result.kind === "response") {
      cookieJars.store(request.cookies, result.url, result.setCookies, clock.now());
    }
    return entry;
  };

  const outcomeOf = (result: WireResult, successStatus: (status: number) => boolean): AttemptOutcome => {
    if (result.kind === "response") return successStatus(result.status) ? "success" : "http-error";
    return result.kind;
  };

  /** Retry on no answer, a timeout or a 5xx; never on 2xx, 3xx or 4xx. */
  const shouldRetry = (job: Job, result: WireResult) =>
    retryingKinds.has(job.request.kind) &&
    job.attempt < options.maxAttempts &&
    (result.kind === "timeout" ||
      (result.kind === "network-error" && result.retryable) ||
      (result.kind === "response" && result.status >= 500));

  /** Per host: deliveries accepted and not finished yet (waiting, in flight or waiting to retry). */
  const pendingByHost = new Map<string, number>();
  const release = (host: string) => {
    const left = (pendingByHost.get(host) ?? 1) - 1;
    if (left > 0) pendingByHost.set(host, left);
    else pendingByHost.delete(host);
  };

  const finish = (job: Job, success: boolean) => {
    if (success) delivered++;
    else failed++;
    release(job.host);
    if (job.key === null) return;
    const lane = lanes.get(job.key);
    if (!lane) return;
    lane.shift();
    const next = lane[0];
    if (next) ready.push(next);
    else lanes.delete(job.key);
  };

  const runAttempt = async (job: Job) => {
    const wire = prepare(job.request, job.id);
    const at = clock.now();
    const started = elapsed();
    const result = await transport.send({
      ...wire,
      followRedirects: false,
      timeoutMs: job.request.timeoutMs ?? options.timeoutMs,
      maxBodyBytes: callbackAnswerBytes,
    });
    const latency = elapsed() - started;
    if (job.generation !== generation) return; // cleared while in flight
    const outcome = outcomeOf(result, (status) => status < 400);
    if (shouldRetry(job, result)) {
      const retryAt = clock.now() + options.backoffMs * 2 ** (job.attempt - 1);
      record(job, wire, at, result, latency, outcome, retryAt);
      const handle = clock.schedule(retryAt, () => {
        retryTimers.delete(job);
        if (job.generation !== generation) return;
        job.attempt++;
        queued++;
        ready.push(job);
        pump();
      });
      retryTimers.set(job, handle);
      return;
    }
    record(job, wire, at, result, latency, outcome, null);
    finish(job, outcome === "success");
  };

  const pump = () => {
    while (inFlight < options.concurrency) {
      const job = ready.take();
      if (!job) break;
      queued--;
      inFlight++;
      void runAttempt(job)
        .catch(() => undefined) // runAttempt never rejects; a bug must still not stop the queue
        .finally(() => {
          inFlight--;
          ready.done(job);
          pump();
          wakeIdle();
        });
    }
  };

  return {
    async request(request): Promise<OutboundResult> {
      const id = mintId();
      const wire = prepare(request, id);
      const at = clock.now();
      const started = elapsed();
      const myGeneration = generation;
      inFlightRequests++;
      try {
        const result = await transport.send({
          ...wire,
          followRedirects: true,
          timeoutMs: request.timeoutMs ?? options.timeoutMs,
          maxBodyBytes: markupAnswerBytes,
        });
        const outcome = outcomeOf(result, (status) => status >= 200 && status < 300);
        if (myGeneration === generation) {
          record({ id, request, attempt: 1 }, wire, at, result, elapsed() - started, outcome, null);
        }
        if (result.kind !== "response")
          return { ok: false, error: result.error, reason: result.kind, url: wire.url, deliveryId: id };
        if (outcome !== "success") {
          return {
            ok: false,
            error: `HTTP ${result.status}`,
            reason: "http-error",
            status: result.status,
            url: result.url,
            deliveryId: id,
          };
        }
        return {
          ok: true,
          status: result.status,
          headers: result.headers,
          body: result.body,
          url: result.url,
          deliveryId: id,
        };
      } finally {
        inFlightRequests--;
        wakeIdle();
      }
    },

    enqueue(request) {
      try {
        const key = request.orderingKey ?? request.callSid ?? request.messageSid ?? null;
        const job: Job = {
          id: mintId(),
          request: { ...request, params: { ...request.params } },
          host: hostOf(request.url),
          key,
          attempt: 1,
          generation,
        };
        const pending = pendingByHost.get(job.host) ?? 0;
        if (pending >= options.maxQueuedPerHost) {
          const error = `not sent: ${pending} deliveries already waiting for ${job.host} (maxQueuedPerHost)`;
          const result: WireResult = { kind: "network-error", error, retryable: false };
          record(job, prepare(job.request, job.id), clock.now(), result, 0, "network-error", null);
          failed++;
          return;
        }
        pendingByHost.set(job.host, pending + 1);
        queued++;
        if (key !== null) {
          const lane = lanes.get(key);
          if (lane) {
            lane.push(job);
            return;
          }
          lanes.set(key, [job]);
        }
        ready.push(job);
        pump();
      } catch {
        // enqueue never throws: a delivery problem must not fail the API call that caused it.
      }
    },

    idle() {
      if (isIdle()) return Promise.resolve();
      return new Promise<void>((resolve) => idleWaiters.push(resolve));
    },

    get deliveries() {
      return log.list();
    },
    list: (filter) => log.list(filter),
    busy: () => !isIdle(),
    register: (urlPrefix, receiver) => receivers.register(urlPrefix, receiver),
    stats: () => ({
      queued,
      inFlight: inFlight + inFlightRequests,
      waitingRetry: retryTimers.size,
      delivered,
      failed,
    }),
    get evicted() {
      return log.evicted;
    },
    options,

    clear() {
      generation++;
      for (const handle of retryTimers.values()) clock.cancel(handle);
      retryTimers.clear();
      ready.clear();
      lanes.clear();
      pendingByHost.clear();
      cookieJars?.clear();
      queued = 0;
      delivered = 0;
      failed = 0;
      log.clear();
      wakeIdle();
    },
  };
}
