// One attempt's wire request (signed, with the idempotency token and the jar's cookies) and its entry in the delivery log.
import type { OutboundRequest } from "./contract.js";
import type { AttemptOutcome, DeliveryAttempt } from "./delivery-log.js";
import type { DispatcherState, Job } from "./dispatcher-state.js";
import { idempotencyTokenHeader } from "./own-requests.js";
import { computeSignature, signatureHeader, twilioSignatureHeader, urlWithQuery } from "./sign.js";
import type { WireResult } from "./transport.js";

/** Characters of a callback's answer kept in the log; the answer is read only that far (4 bytes a character at most). */
const responseExcerpt = 1024;
export const callbackAnswerBytes = responseExcerpt * 4;

/** What an attempt sent, as the log records it. */
export interface SentWire {
  url: string;
  signature: string;
  cookie: string | null;
}

/** Builds the signed wire request for one attempt. */
export function prepare(s: DispatcherState, request: OutboundRequest, id: string) {
  const { clock, cookieJars } = s;
  const method = request.method;
  const url = method === "GET" ? urlWithQuery(request.url, request.params) : request.url;
  const signature = computeSignature(request.authToken, url, method === "GET" ? {} : request.params);
  const headers: Record<string, string> = {
    accept: "*/*",
    "user-agent": s.userAgent,
    [signatureHeader]: signature,
    [twilioSignatureHeader]: signature,
    [idempotencyTokenHeader]: id,
  };
  // Cookies are not signed (Twilio's signature covers the URL and parameters only).
  const cookie = request.cookies && cookieJars ? cookieJars.header(request.cookies, url, clock.now()) : null;
  if (cookie !== null) headers.cookie = cookie;
  let body: string | undefined;
  if (method === "POST") {
    headers["content-type"] = "application/x-www-form-urlencoded; charset=utf-8";
    body = new URLSearchParams(request.params).toString();
  }
  return { method, url, headers, body, signature, cookie };
}

/** Logs one attempt, and keeps the cookies its answer set in the request's jar. */
export function record(
  s: DispatcherState,
  job: Pick<Job, "id" | "request" | "attempt">,
  wire: SentWire,
  at: number,
  result: WireResult,
  latencyMs: number,
  outcome: AttemptOutcome,
  nextAttemptAt: number | null,
): DeliveryAttempt {
  const { clock, cookieJars } = s;
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
  s.log.append(entry);
  if (request.cookies && cookieJars && result.kind === "response") {
    cookieJars.store(request.cookies, result.url, result.setCookies, clock.now());
  }
  return entry;
}

export const outcomeOf = (result: WireResult, successStatus: (status: number) => boolean): AttemptOutcome => {
  if (result.kind === "response") return successStatus(result.status) ? "success" : "http-error";
  return result.kind;
};
