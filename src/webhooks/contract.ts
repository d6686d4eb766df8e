// What the engine asks of the webhook machinery: fetch markup now, or queue a callback for delivery.

/** Twilio refuses markup documents over 64 KB; a markup answer is read no further than one byte past it. */
export const maxMarkupBytes = 64 * 1024;

/** Kinds of request the sandbox makes to customers' URLs. */
export type OutboundKind =
  | "voice-markup"
  | "call-status"
  | "recording-status"
  | "transcription"
  | "message-status"
  | "sms-markup"
  | "partial-result"
  | "stream-status"
  | "amd-status";

export interface OutboundRequest {
  kind: OutboundKind;
  url: string;
  method: "GET" | "POST";
  /** Form parameters (POST body, or the query string for GET); signed as Twilio signs them. */
  params: Record<string, string>;
  accountSid: string;
  /** Signing key: the account's auth token. */
  authToken: string;
  callSid?: string | undefined;
  messageSid?: string | undefined;
  /** Deliveries with the same key leave in the order they were queued (per call, per message). */
  orderingKey?: string | undefined;
  /** The cookie jar the request reads and fills (a call's, or an SMS number pair's); none: no cookies. */
  cookies?: CookieScope | undefined;
  /** Per-request timeout in real milliseconds; default the sandbox's `webhooks.timeoutMs` (15 s). */
  timeoutMs?: number | undefined;
}

/** `url` is the URL finally answered (after redirects); `deliveryId` names the attempt in the delivery log. */
export type OutboundResult =
  | {
      ok: true;
      status: number;
      headers: Record<string, string>;
      body: string;
      url: string;
      deliveryId?: string;
    }
  | {
      ok: false;
      error: string;
      /** No answer in time, no connection (or a broken one), or an answer with an error status. */
      reason?: "timeout" | "network-error" | "http-error";
      status?: number | undefined;
      url: string;
      deliveryId?: string;
    };

export interface WebhookSender {
  /** Makes the request now and gives the answer (markup fetches: no retry; redirects followed). */
  request(request: OutboundRequest): Promise<OutboundResult>;
  /** Queues a callback; it is delivered asynchronously, in order per key, with retries. Never throws. */
  enqueue(request: OutboundRequest): void;
  /** Resolves once nothing is queued or in flight (the virtual clock's driver awaits it). */
  idle(): Promise<void>;
}

/** Which cookie jar a request reads and fills, and how long its cookies may live at most (SMS: four hours). */
export interface CookieScope {
  jar: string;
  maxAgeMs?: number | undefined;
}

/** Where the dispatcher keeps the cookies customers' apps set (the sandbox gives it one; alone it keeps none). */
export interface CookieJars {
  /** The `Cookie` header for a request to `url` in this scope at `now`, or null when nothing is kept. */
  header(scope: CookieScope, url: string, now: number): string | null;
  /** Keeps what the answer's `Set-Cookie` headers set (a past expiry or `Max-Age=0` removes the cookie). */
  store(scope: CookieScope, url: string, setCookies: readonly string[], now: number): void;
  /** Jars held now. */
  readonly size: number;
  clear(): void;
}
