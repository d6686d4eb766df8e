// Status callbacks: queued per host and in order per call, sent a few at a time, retried with backoff on the sandbox clock.
import { callbackAnswerBytes, outcomeOf, prepare, record } from "./attempt.js";
import type { OutboundKind, OutboundRequest } from "./contract.js";
import { type DispatcherState, type Job, mintId, wakeIdle } from "./dispatcher-state.js";
import { hostOf } from "./host-queues.js";
import type { WireResult } from "./transport.js";

/** Status-type callbacks retry; markup fetches do not (the engine plays the call's fallback instead). */
const retryingKinds: ReadonlySet<OutboundKind> = new Set([
  "call-status",
  "recording-status",
  "transcription",
  "message-status",
  "stream-status",
  "amd-status",
]);

/** Retry on no answer, a timeout or a 5xx; never on 2xx, 3xx or 4xx. */
const shouldRetry = (s: DispatcherState, job: Job, result: WireResult) =>
  retryingKinds.has(job.request.kind) &&
  job.attempt < s.options.maxAttempts &&
  (result.kind === "timeout" ||
    (result.kind === "network-error" && result.retryable) ||
    (result.kind === "response" && result.status >= 500));

function release(s: DispatcherState, host: string): void {
  const left = (s.pendingByHost.get(host) ?? 1) - 1;
  if (left > 0) s.pendingByHost.set(host, left);
  else s.pendingByHost.delete(host);
}

/** A delivery is done: counted, its host's place freed, and the next one of its ordering key let go. */
function finish(s: DispatcherState, job: Job, success: boolean): void {
  if (success) s.delivered++;
  else s.failed++;
  release(s, job.host);
  if (job.key === null) return;
  const lane = s.lanes.get(job.key);
  if (!lane) return;
  lane.shift();
  const next = lane[0];
  if (next) s.ready.push(next);
  else s.lanes.delete(job.key);
}

/** Sends one attempt and logs it; then either schedules the retry or finishes the delivery. */
async function runAttempt(s: DispatcherState, job: Job): Promise<void> {
  const { clock, options, elapsed } = s;
  const wire = prepare(s, job.request, job.id);
  const at = clock.now();
  const started = elapsed();
  const result = await s.transport.send({
    ...wire,
    followRedirects: false,
    timeoutMs: job.request.timeoutMs ?? options.timeoutMs,
    maxBodyBytes: callbackAnswerBytes,
  });
  const latency = elapsed() - started;
  if (job.generation !== s.generation) return; // cleared while in flight
  const outcome = outcomeOf(result, (status) => status < 400);
  if (shouldRetry(s, job, result)) {
    const retryAt = clock.now() + options.backoffMs * 2 ** (job.attempt - 1);
    record(s, job, wire, at, result, latency, outcome, retryAt);
    const handle = clock.schedule(retryAt, () => {
      s.retryTimers.delete(job);
      if (job.generation !== s.generation) return;
      job.attempt++;
      s.queued++;
      s.ready.push(job);
      pump(s);
    });
    s.retryTimers.set(job, handle);
    return;
  }
  record(s, job, wire, at, result, latency, outcome, null);
  finish(s, job, outcome === "success");
}

/** Starts the ready deliveries, as many as the free slots allow. */
function pump(s: DispatcherState): void {
  while (s.inFlight < s.options.concurrency) {
    const job = s.ready.take();
    if (!job) break;
    s.queued--;
    s.inFlight++;
    void runAttempt(s, job)
      .catch(() => undefined) // runAttempt never rejects; a bug must still not stop the queue
      .finally(() => {
        s.inFlight--;
        s.ready.done(job);
        pump(s);
        wakeIdle(s);
      });
  }
}

/** Queues a callback behind the earlier ones of its ordering key, or logs it as failed when its host's queue is full. */
export function enqueue(s: DispatcherState, request: OutboundRequest): void {
  try {
    const key = request.orderingKey ?? request.callSid ?? request.messageSid ?? null;
    const job: Job = {
      id: mintId(s),
      request: { ...request, params: { ...request.params } },
      host: hostOf(request.url),
      key,
      attempt: 1,
      generation: s.generation,
    };
    const pending = s.pendingByHost.get(job.host) ?? 0;
    if (pending >= s.options.maxQueuedPerHost) {
      const error = `not sent: ${pending} deliveries already waiting for ${job.host} (maxQueuedPerHost)`;
      const result: WireResult = { kind: "network-error", error, retryable: false };
      record(s, job, prepare(s, job.request, job.id), s.clock.now(), result, 0, "network-error", null);
      s.failed++;
      return;
    }
    s.pendingByHost.set(job.host, pending + 1);
    s.queued++;
    if (key !== null) {
      const lane = s.lanes.get(key);
      if (lane) {
        lane.push(job);
        return;
      }
      s.lanes.set(key, [job]);
    }
    s.ready.push(job);
    pump(s);
  } catch {
    // enqueue never throws: a delivery problem must not fail the API call that caused it.
  }
}

/** Drops queued deliveries and pending retries, and the log and the kept cookies (requests in flight finish unlogged). */
export function clearDeliveries(s: DispatcherState): void {
  s.generation++;
  for (const handle of s.retryTimers.values()) s.clock.cancel(handle);
  s.retryTimers.clear();
  s.ready.clear();
  s.lanes.clear();
  s.pendingByHost.clear();
  s.cookieJars?.clear();
  s.queued = 0;
  s.delivered = 0;
  s.failed = 0;
  s.log.clear();
  wakeIdle(s);
}
