// What the running engine shares between its parts: state, the event loop, the webhook sender, the public URL.
import type { CookieScope, OutboundKind, WebhookSender } from "../../webhooks/contract.js";
import type { Scheduler } from "../time/scheduler.js";
import type { EngineContext } from "./context.js";

export interface EngineServices {
  readonly ctx: EngineContext;
  readonly scheduler: Scheduler;
  /** The sender the sandbox wires in (markup fetches and callbacks). */
  webhooks(): WebhookSender;
  /** Base of URLs the sandbox hands out (RecordingUrl, TranscriptionUrl), e.g. https://api.voice-sandbox.test. */
  publicBaseUrl(): string;
}

export interface Callback {
  kind: OutboundKind;
  url: string;
  method: "GET" | "POST";
  params: Record<string, string>;
  accountSid: string;
  callSid?: string | undefined;
  messageSid?: string | undefined;
  orderingKey: string;
  cookies?: CookieScope | undefined;
}

/** Queues a callback signed with the account's auth token; an account that is gone gets nothing. */
export function sendCallback(services: EngineServices, callback: Callback): void {
  const account = services.ctx.store.accounts.get(callback.accountSid);
  if (!account) return;
  services.webhooks().enqueue({ ...callback, authToken: account.auth_token });
}
