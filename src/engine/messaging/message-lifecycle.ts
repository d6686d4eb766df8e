// Messages over time: outbound delivery (queued -> sending -> sent -> delivered) with callbacks, and inbound SMS.
import { errors } from "../../domain/errors.js";
import type { Message, MessageStatus } from "../../domain/message.js";
import { channelOf, numberOf } from "../../domain/message-address.js";
import { parseMarkup } from "../../markup/parse.js";
import { numberSmsHandler } from "../accounts/applications.js";
import { billMessage } from "../billing/billing.js";
import { apiVersion } from "../callbacks/voice-params.js";
import { smsCookies } from "../callbacks/webhook-cookies.js";
import { type EngineServices, sendCallback } from "../context/engine-services.js";
import { recordEvent } from "../context/events.js";
import { locateNumber, locationParams } from "../location/number-location.js";
import { eventClass } from "../time/scheduler.js";
import { whatsappErrors, whatsappSessionOpen } from "./message-senders.js";
import { sendMessage } from "./messages.js";

/** Delivery steps after creation: sending at once, sent after 500 ms, the handset's receipt after 2 s. */
export const messageTiming = { sendingMs: 0, sentMs: 500, deliveredMs: 2000 } as const;

/** Destinations with fixed delivery outcomes (listed in docs/engine.md): carrier failure, and an unreachable handset. */
export const messageTestNumbers: Record<
  string,
  { status: "failed" | "undelivered"; code: number; text: string }
> = {
  "+15005550001": { status: "failed", code: 30006, text: "Landline or unreachable carrier" },
  "+15005550002": { status: "undelivered", code: 30003, text: "Unreachable destination handset" },
};

export interface InboundMessage {
  from: string;
  to: string;
  body: string;
  mediaUrls?: string[] | undefined;
  /** The media's content types as the sender's phone stated them; else read off each URL. */
  mediaContentTypes?: string[] | undefined;
  /** A WhatsApp user's profile name (Twilio's ProfileName). */
  profileName?: string | undefined;
}

export interface MessageLifecycle {
  /** Starts delivery of a queued (or, at its SendAt, a scheduled) outbound message. */
  start(message: Message): void;
  /** A message arrives at one of the sandbox's numbers: recorded, posted to sms_url, replies sent. */
  receive(input: InboundMessage): Message;
  reset(): void;
  /** How many messages are between start and a final status (delivered, undelivered, failed, canceled). */
  inFlight(): number;
}

/** "YYMMDDhhmm" in UTC, Twilio's RawDlrDoneDate. */
function dlrDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

export function createMessageLifecycle(services: EngineServices): MessageLifecycle {
  const { ctx, scheduler } = services;
  /** Messages whose delivery is under way: a second start of one does nothing. Each leaves when it settles. */
  let started = new Set<string>();
  const settled = (sid: string) => {
    started.delete(sid);
    return null;
  };

  const move = (sid: string, status: MessageStatus, error?: { code: number; text: string }) => {
    const current = ctx.store.messages.get(sid);
    if (!current || current.status === "canceled") return settled(sid);
    if (status === "failed" || status === "delivered" || status === "undelivered") settled(sid);
    const message = ctx.store.transact(() => {
      const changes: Partial<Message> = { status, updated_at: ctx.clock.now() };
      if (status === "sent") {
        changes.date_sent = ctx.clock.now();
        changes.price = billMessage(ctx, current);
      }
      if (error) {
        changes.error_code = error.code;
        changes.error_message = error.text;
      }
      const saved = ctx.store.messages.replace({ ...current, ...changes });
      recordEvent(ctx, `message.${status}`, saved.account_sid, "message", saved);
      return saved;
    });
    // Twilio sends no callback for the initial status, one for each change after it.
    if (message.status_callback) {
      const params: Record<string, string> = {
        AccountSid: message.account_sid,
        ApiVersion: apiVersion,
        From: message.from,
        MessageSid: message.sid,
        MessageStatus: status,
        SmsSid: message.sid,
        SmsStatus: status,
        To: message.to,
      };
      if (error) params.ErrorCode = String(error.code);
      if (status === "delivered" || status === "undelivered")
        params.RawDlrDoneDate = dlrDate(ctx.clock.now());
      sendCallback(services, {
        kind: "message-status",
        url: message.status_callback,
        method: message.status_callback_method,
        params,
        accountSid: message.account_sid,
        messageSid: message.sid,
        orderingKey: message.sid,
      });
    }
    return message;
  };

  const at = (delay: number, label: string, task: () => void) => {
    scheduler.after(delay, eventClass.continuation, label, task);
  };

  const deliver = (message: Message) => {
    const outcome = messageTestNumbers[message.to];
    at(messageTiming.sendingMs, `sending ${message.sid}`, () => {
      if (!move(message.sid, "sending")) return;
      if (outcome?.status === "failed") {
        move(message.sid, "failed", outcome);
        return;
      }
      // WhatsApp: a free-form message needs the user to have written within 24 hours; a template does not.
      if (
        channelOf(message.to) === "whatsapp" &&
        !message.content_sid &&
        !whatsappSessionOpen(ctx, message)
      ) {
        move(message.sid, "failed", whatsappErrors.outsideWindow);
        return;
      }
      at(messageTiming.sentMs, `sent ${message.sid}`, () => {
        if (!move(message.sid, "sent")) return;
        at(messageTiming.deliveredMs, `delivered ${message.sid}`, () => {
          if (outcome) move(message.sid, "undelivered", outcome);
          else move(message.sid, "delivered");
        });
      });
    });
  };

  const lifecycle: MessageLifecycle = {
    start(message) {
      if (started.has(message.sid)) return;
      started.add(message.sid);
      if (message.status === "scheduled" && message.send_at !== null) {
        scheduler.at(message.send_at, eventClass.continuation, `scheduled ${message.sid}`, () => {
          const current = ctx.store.messages.get(message.sid);
          if (current?.status !== "scheduled") {
            settled(message.sid);
            return;
          }
          deliver(move(message.sid, "queued") ?? current);
        });
        return;
      }
      deliver(message);
    },
    receive(input) {
      const number = ctx.store.phoneNumbers.findOne("number", numberOf(input.to));
      if (!number || number.account_sid === null) throw errors.numberNotRouted(input.to);
      const account = ctx.store.accounts.get(number.account_sid);
      if (account?.status === "suspended") throw errors.accountSuspended(number.account_sid);
      const whatsapp = channelOf(input.to) === "whatsapp";
      if (channelOf(input.from) !== channelOf(input.to)) throw errors.channelMismatch();
      if (whatsapp && !account?.whatsapp_senders.includes(number.number))
        throw errors.notWhatsappSender(input.to);
      const message = ctx.store.transact(() => {
        const created = sendMessage(ctx, {
          accountSid: number.account_sid!,
          from: input.from,
          to: input.to,
          body: input.body,
          mediaUrls: input.mediaUrls,
          ...(input.mediaContentTypes ? { mediaContentTypes: input.mediaContentTypes } : {}),
          direction: "inbound",
        });
        started.add(created.sid);
        const received = ctx.store.messages.replace({
          ...created,
          status: "received",
          date_sent: ctx.clock.now(),
          price: billMessage(ctx, created),
          updated_at: ctx.clock.now(),
        });
        recordEvent(ctx, "message.received", received.account_sid, "message", received);
        return received;
      });
      // A number with an SmsApplicationSid posts to the application's SmsUrl, as Twilio's do.
      const handler = numberSmsHandler(ctx, number);
      if (handler.url && account) {
        const smsUrl = handler.url;
        const method = handler.method;
        at(0, `sms ${message.sid}`, async () => {
          const params: Record<string, string> = {
            AccountSid: message.account_sid,
            ApiVersion: apiVersion,
            Body: message.body,
            From: message.from,
            MessageSid: message.sid,
            NumMedia: String(message.num_media),
            NumSegments: String(message.num_segments),
            SmsMessageSid: message.sid,
            SmsSid: message.sid,
            SmsStatus: "received",
            To: message.to,
          };
          // Twilio: each media item as MediaContentType{N} and MediaUrl{N}, the URL of its Media resource.
          message.media.forEach((media, i) => {
            params[`MediaContentType${i}`] = media.content_type;
            params[`MediaUrl${i}`] =
              `${services.publicBaseUrl()}/${apiVersion}/Accounts/${message.account_sid}/Messages/${message.sid}/Media/${media.sid}`;
          });
          if (whatsapp) {
            // Twilio's WhatsApp parameters: the user's WhatsApp ID (the number's digits) and profile name.
            params.WaId = numberOf(message.from).slice(1);
            if (input.profileName !== undefined) params.ProfileName = input.profileName;
          } else {
            Object.assign(
              params,
              locationParams("From", locateNumber(ctx.store, message.from)),
              locationParams("To", locateNumber(ctx.store, message.to)),
            );
          }
          await services.webhooks().idle();
          const result = await services.webhooks().request({
            kind: "sms-markup",
            url: smsUrl,
            method,
            params,
            accountSid: message.account_sid,
            authToken: account.auth_token,
            messageSid: message.sid,
            orderingKey: message.sid,
            cookies: smsCookies(message.from, message.to),
          });
          if (!result.ok || result.body.trim() === "") return;
          replyFrom(message, result.body);
        });
      }
      return message;
    },
    reset() {
      // The engine's reset clears the scheduler, and with it every pending step.
      started = new Set();
    },
    inFlight: () => started.size,
  };

  /** Each <Message> in the answer becomes an outbound-reply (to the sender, from the number, unless set). */
  const replyFrom = (inbound: Message, markup: string) => {
    let verbs: ReturnType<typeof parseMarkup>["verbs"];
    try {
      verbs = parseMarkup(markup).verbs;
    } catch (error) {
      const detail = { sid: inbound.sid, error: error instanceof Error ? error.message : String(error) };
      recordEvent(ctx, "message.markup_error", inbound.account_sid, "alert", detail);
      return;
    }
    for (const verb of verbs) {
      if (verb.name !== "Message") continue;
      const bodyNode = verb.children.find((c) => c.name === "Body");
      const media = verb.children.filter((c) => c.name === "Media").map((c) => c.text);
      const reply = sendMessage(ctx, {
        accountSid: inbound.account_sid,
        from: verb.attrs.from ?? inbound.to,
        to: verb.attrs.to ?? inbound.from,
        body: bodyNode ? bodyNode.text : verb.children.length === 0 ? verb.text : "",
        mediaUrls: media,
        direction: "outbound-reply",
        statusCallback: verb.attrs.statusCallback ?? null,
        statusCallbackMethod: verb.attrs.method?.toUpperCase() === "GET" ? "GET" : "POST",
      });
      lifecycle.start(reply);
    }
  };

  return lifecycle;
}
