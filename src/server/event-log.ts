// The readable event log: one info line per call status change, message status, recording, transcription and webhook
// request; one warn line per alert.
import type { Store } from "../domain/store.js";

export interface EventLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  /** pino's level check; without it every line is built and handed to `info`. */
  isLevelEnabled?(level: string): boolean;
}

/** How many records' last status are remembered to tell a status change from another update; the oldest go first. */
const rememberedStatuses = 10_000;

interface Watched {
  sid?: string;
  status?: string;
  direction?: string;
  from?: string;
  to?: string;
  call_sid?: string;
  recording_sid?: string;
  duration?: number | null;
}

/** One line per record whose status changed, read from the store's change feed (nothing in the engine knows of it). */
export function logStatusChanges(store: Store, logger: EventLogger): () => void {
  const last = new Map<string, string>();
  const changed = (sid: string, status: string) => {
    if (last.get(sid) === status) return false;
    last.delete(sid);
    last.set(sid, status);
    if (last.size > rememberedStatuses) last.delete(last.keys().next().value as string);
    return true;
  };
  return store.subscribe((batch) => {
    // Below info (the benchmarks' and many CI runs' warn) the lines would be built and thrown away on
    // every write; asked per batch, so a level changed at run time takes effect at once.
    if (logger.isLevelEnabled?.("info") === false) return;
    for (const change of batch) {
      if (change.op !== "put") continue;
      const row = change.row as Watched;
      if (!row.sid || !row.status || !changed(row.sid, row.status)) continue;
      switch (change.table) {
        case "calls":
          logger.info(
            { call_sid: row.sid, direction: row.direction, from: row.from, to: row.to, status: row.status },
            `call ${row.sid} ${row.direction} ${row.from} -> ${row.to}: ${row.status}`,
          );
          break;
        case "messages":
          logger.info(
            {
              message_sid: row.sid,
              direction: row.direction,
              from: row.from,
              to: row.to,
              status: row.status,
            },
            `message ${row.sid} ${row.direction} ${row.from} -> ${row.to}: ${row.status}`,
          );
          break;
        case "recordings":
          logger.info(
            { recording_sid: row.sid, call_sid: row.call_sid, status: row.status, duration: row.duration },
            `recording ${row.sid} of call ${row.call_sid}: ${row.status}${row.duration ? ` (${row.duration} s)` : ""}`,
          );
          break;
        case "transcriptions":
          logger.info(
            { transcription_sid: row.sid, recording_sid: row.recording_sid, status: row.status },
            `transcription ${row.sid} of recording ${row.recording_sid}: ${row.status}`,
          );
          break;
      }
    }
  });
}

/** What an alert's event records (the engine's `call.error` and `call.warning` events, resource type `alert`). */
interface AlertEvent {
  resource_type?: string;
  data?: { call_sid?: string; error_code?: number; level?: string; message?: string };
}

/** What to do about an alert whose message alone does not say it. */
function hintFor(code: number | undefined, message: string): string {
  if (code === 11200 && message.includes("no URL is configured"))
    return ": the call has no markup URL; for a call to one of your numbers, set the number's VoiceUrl (the account API's IncomingPhoneNumbers, or the inspector's Phone page)";
  return "";
}

/**
 * One warn line per alert (Twilio's debugger: a markup fetch that failed, a verb refused, a stream that broke),
 * with its call sid, read from the events the engine records, so a misconfigured number shows in the terminal.
 */
export function logAlerts(store: Store, logger: EventLogger): () => void {
  return store.subscribe((batch) => {
    if (logger.isLevelEnabled?.("warn") === false) return;
    for (const change of batch) {
      if (change.table !== "events" || change.op !== "put") continue;
      const event = change.row as AlertEvent;
      if (event.resource_type !== "alert" || !event.data) continue;
      const { call_sid, error_code, level, message = "" } = event.data;
      logger.warn(
        { call_sid, error_code, severity: level, alert: message },
        `alert ${error_code} on call ${call_sid}: ${message}${hintFor(error_code, message)}`,
      );
    }
  });
}

/** The parameters that say what a webhook is about, in the order worth reading. */
const telling = [
  "CallSid",
  "CallStatus",
  "MessageSid",
  "MessageStatus",
  "RecordingSid",
  "RecordingStatus",
  "TranscriptionStatus",
  "StatusCallbackEvent",
];

/** A fetch for webhook deliveries that logs each request with its outcome, then answers as `send` does. */
export function loggingWebhookFetch(logger: EventLogger, send: typeof fetch): typeof fetch {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const body = typeof init?.body === "string" ? init.body : "";
    const params = new URLSearchParams(method === "GET" ? new URL(url).search : body);
    const about = telling.filter((name) => params.has(name));
    const fields = { method, url, ...Object.fromEntries(about.map((name) => [name, params.get(name)])) };
    const what = `webhook ${method} ${url}${about.length > 0 ? ` (${about.map((n) => `${n}=${params.get(n)}`).join(" ")})` : ""}`;
    try {
      const response = await send(input, init);
      logger.info({ ...fields, status: response.status }, `${what} -> ${response.status}`);
      return response;
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const reason =
        (error as Error).name === "AbortError" ? "timed out" : (cause ?? (error as Error).message);
      logger.info({ ...fields, error: reason }, `${what} -> failed: ${reason}`);
      throw error;
    }
  };
}
