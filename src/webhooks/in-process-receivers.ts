// In-process receivers: functions registered for a URL prefix answer deliveries instead of the network.

/** What an in-process receiver is given: the request as it would have arrived over HTTP. */
export interface ReceivedWebhook {
  method: "GET" | "POST";
  /** The URL requested (for GET, with the parameters in its query string). */
  url: string;
  /** Lower-case header names, as Node shows them. */
  headers: Record<string, string>;
  /** The form parameters (POST body, or the query parameters of a GET). */
  params: Record<string, string>;
  /** The raw body (empty for GET). */
  body: string;
}

export interface ReceiverAnswer {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Bytes for a binary answer (audio a <Play> names); markup and callbacks read it as UTF-8. */
  body?: string | Uint8Array;
}

/** Answers a delivery: an answer object, a body string (200, text/xml), or nothing (200, empty). */
export type WebhookReceiver = (
  request: ReceivedWebhook,
) => ReceiverAnswer | string | undefined | Promise<ReceiverAnswer | string | undefined>;

export interface ReceiverRegistry {
  /** Registers `receiver` for every URL starting with `urlPrefix`; returns a function that removes it. */
  register(urlPrefix: string, receiver: WebhookReceiver): () => void;
  /** The receiver with the longest matching prefix, if any. */
  find(url: string): WebhookReceiver | undefined;
  clear(): void;
}

export function createReceiverRegistry(): ReceiverRegistry {
  const receivers = new Map<string, WebhookReceiver>();
  return {
    register(urlPrefix, receiver) {
      if (!urlPrefix) throw new Error("register needs a URL prefix, e.g. https://example.test/status");
      receivers.set(urlPrefix, receiver);
      return () => {
        if (receivers.get(urlPrefix) === receiver) receivers.delete(urlPrefix);
      };
    },
    find(url) {
      if (receivers.size === 0) return undefined;
      let best: string | undefined;
      for (const prefix of receivers.keys()) {
        if (url.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
      }
      return best === undefined ? undefined : receivers.get(best);
    },
    clear() {
      receivers.clear();
    },
  };
}

/** The answer as an HTTP-like response; a string is markup, so it goes out as text/xml like a TwiML app's. */
export function normaliseAnswer(answer: ReceiverAnswer | string | undefined): Required<ReceiverAnswer> {
  if (answer === undefined) return { status: 200, headers: {}, body: "" };
  if (typeof answer === "string")
    return { status: 200, headers: { "content-type": "text/xml" }, body: answer };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  return { status: answer.status ?? 200, headers, body: answer.body ?? "" };
}
