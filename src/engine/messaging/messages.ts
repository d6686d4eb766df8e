// Messages as records: sending (queued or scheduled), redacting, canceling and deleting; message-delivery.ts delivers them.
import { errors } from "../../domain/errors.js";
import type { Message, MessageDirection, MessageStatus } from "../../domain/message.js";
import { twilioMissingWording } from "../../domain/twilio-wording.js";
import {
  assertMayMessage,
  holdMessagePrice,
  messageCents,
  messageRefusal,
} from "../billing/message-admission.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";
import { mediaOf } from "./message-media.js";
import { countSegments } from "./message-segments.js";
import { assertSender } from "./message-senders.js";

export interface NewMessage {
  accountSid: string;
  from: string;
  to: string;
  body?: string;
  mediaUrls?: string[];
  /** Content types of the media, where the sender stated them (inbound MMS); else read off the URL. */
  mediaContentTypes?: string[];
  direction?: MessageDirection;
  messagingServiceSid?: string | null;
  statusCallback?: string | null;
  statusCallbackMethod?: "GET" | "POST";
  /** Scheduled send time (ScheduleType=fixed). */
  sendAt?: number | null;
  /** A content template (ContentSid) sent instead of, or with, a body. */
  contentSid?: string | null;
}

/** Statuses after which nothing more happens to a message (Twilio lets these be deleted). */
export const finalMessageStatuses: readonly MessageStatus[] = [
  "sent",
  "delivered",
  "undelivered",
  "failed",
  "received",
  "read",
  "canceled",
  "partially_delivered",
];

/**
 * Creates the message record, once the account may pay for it (message-admission.ts: 402 with 20042 when
 * the wallet less what is held cannot cover its price). Twilio's first status is `queued`, `accepted` when
 * a Messaging Service sends it, and `scheduled` for a fixed SendAt; MMS (any media) get an MM sid, SMS an
 * SM sid. An outbound message holds its price until it is charged at `sent` or fails; an inbound one is
 * charged on arrival (message-inbound.ts).
 */
export function sendMessage(ctx: EngineContext, input: NewMessage): Message {
  const cents = priceCents(ctx, input);
  return ctx.store.transact(() => {
    // Admission and hold in one synchronous step: concurrent requests cannot both spend the same cents.
    assertMayMessage(ctx, input.accountSid, cents);
    const message = insertMessage(ctx, input);
    if (message.direction !== "inbound") holdMessagePrice(ctx, message.account_sid, message.sid, cents);
    return message;
  });
}

/**
 * A message the markup sends (`<Sms>` in a call, `<Message>` in a messaging answer): as `sendMessage`, but a
 * message the wallet cannot cover is stored `failed` with the refusal's code (20042) instead of throwing, so
 * the call or reply goes on. Its `failed` status callback is posted when the lifecycle starts it.
 */
export function sendMessageOrFail(ctx: EngineContext, given: NewMessage): Message {
  const { input, leftOut } = keepHttpUrls(given);
  const cents = priceCents(ctx, input);
  return ctx.store.transact(() => {
    const refusal = messageRefusal(ctx, input.accountSid, cents);
    if (!refusal) {
      const sent = sendMessage(ctx, input);
      for (const url of leftOut) {
        const error = `Invalid URL format (11100): ${JSON.stringify(url)} is not an http(s) URL and was left out`;
        const detail: { sid: string; error: string } = { sid: sent.sid, error };
        recordEvent(ctx, "message.markup_error", sent.account_sid, "alert", detail);
      }
      return sent;
    }
    const created = insertMessage(ctx, input);
    const failed = ctx.store.messages.replace({
      ...created,
      status: "failed",
      error_code: refusal.code,
      error_message: refusal.message,
    });
    recordEvent(ctx, "message.failed", failed.account_sid, "message", failed);
    return failed;
  });
}

const isHttpUrl = (url: string) => /^https?:\/\//i.test(url.trim()) && URL.canParse(url.trim());

/**
 * Markup names media and callbacks with no request schema in front of them: only http(s) URLs are kept, as
 * the APIs keep only those, and each one left out is reported (Twilio's 11100, Invalid URL format).
 */
function keepHttpUrls(input: NewMessage): { input: NewMessage; leftOut: string[] } {
  const leftOut = [...(input.mediaUrls ?? []), input.statusCallback ?? ""].filter(
    (url) => url !== "" && !isHttpUrl(url),
  );
  if (leftOut.length === 0) return { input, leftOut };
  const callback = input.statusCallback;
  return {
    input: {
      ...input,
      mediaUrls: (input.mediaUrls ?? []).filter(isHttpUrl),
      statusCallback: callback && isHttpUrl(callback) ? callback : null,
    },
    leftOut,
  };
}

function insertMessage(ctx: EngineContext, input: NewMessage): Message {
  const sid = ctx.ids.mint(messageSidPrefix(input));
  const message = ctx.store.messages.insert(messageRecord(input, sid, ctx.clock.now()));
  recordEvent(ctx, "message.created", message.account_sid, "message", message);
  return message;
}

/** What the message will cost, in cents, priced as `billMessage` prices it. */
const priceCents = (ctx: EngineContext, input: NewMessage) =>
  messageCents(ctx, {
    direction: input.direction ?? "outbound-api",
    from: input.from,
    to: input.to,
    num_segments: countSegments(input.body ?? "").segments,
  });

/** Twilio: MMS (any media) get an MM sid, SMS an SM sid. */
export const messageSidPrefix = (input: NewMessage) => ((input.mediaUrls ?? []).length > 0 ? "MM" : "SM");

/**
 * The media lists of a message without media, most of them: one frozen empty array shared by every such row
 * (rows are immutable values) instead of two arrays of ~32 bytes each per message.
 */
const noMedia = Object.freeze([]) as unknown as never[];

/** A new message as it is first answered (not stored: sendMessage stores it, test credentials do not). */
export function messageRecord(input: NewMessage, sid: string, now: number): Message {
  const body = input.body ?? "";
  const media = input.mediaUrls?.length ? input.mediaUrls : noMedia;
  const { encoding, segments } = countSegments(body);
  const status: MessageStatus = input.sendAt
    ? "scheduled"
    : input.messagingServiceSid
      ? "accepted"
      : "queued";
  return {
    sid,
    account_sid: input.accountSid,
    messaging_service_sid: input.messagingServiceSid ?? null,
    direction: input.direction ?? "outbound-api",
    from: input.from,
    to: input.to,
    body,
    media_urls: media,
    media: media.length > 0 ? mediaOf(sid, media, input.mediaContentTypes) : noMedia,
    num_segments: segments,
    num_media: media.length,
    encoding,
    status,
    error_code: null,
    error_message: null,
    price: null,
    price_unit: "USD",
    status_callback: input.statusCallback ?? null,
    status_callback_method: input.statusCallbackMethod ?? "POST",
    send_at: input.sendAt ?? null,
    content_sid: input.contentSid ?? null,
    date_sent: null,
    created_at: now,
    updated_at: now,
  };
}

/** Twilio's redaction: the body becomes an empty string; everything else stays. */
export function redactMessage(ctx: EngineContext, message: Message): Message {
  return ctx.store.transact(() => {
    const redacted = ctx.store.messages.replace({ ...message, body: "", updated_at: ctx.clock.now() });
    recordEvent(ctx, "message.redacted", message.account_sid, "message", redacted);
    return redacted;
  });
}

/** Cancels a scheduled message; any other status is Twilio's 30409. */
export function cancelMessage(ctx: EngineContext, message: Message): Message {
  if (message.status !== "scheduled") throw errors.messageNotCancelable(message.sid, message.status);
  return ctx.store.transact(() => {
    const canceled = ctx.store.messages.replace({
      ...message,
      status: "canceled",
      updated_at: ctx.clock.now(),
    });
    // Never sent, never charged: what it held goes back to the wallet's free credit.
    ctx.holds?.release(message.sid);
    recordEvent(ctx, "message.canceled", message.account_sid, "message", canceled);
    return canceled;
  });
}

/** Removes a message once it is final; before that, Twilio's 20009. */
export function deleteMessage(ctx: EngineContext, message: Message): void {
  if (!finalMessageStatuses.includes(message.status)) {
    throw errors.notFinished("message", message.sid, message.status);
  }
  ctx.store.transact(() => {
    ctx.store.messages.delete(message.sid);
    recordEvent(ctx, "message.deleted", message.account_sid, "message", message);
  });
}

export interface ApiMessage extends Omit<NewMessage, "from" | "direction"> {
  from: string | null;
  scheduleType: "fixed" | null;
}

// Twilio: scheduled sends must be 15 minutes to 35 days ahead.
const minScheduleMs = 15 * 60_000;
const maxScheduleMs = 35 * 86_400_000;

/**
 * A message from the account API, checked as Twilio checks it: content (21602), a sender (21603) the
 * account may send from (message-senders.ts), and scheduling (ScheduleType with SendAt, a Messaging
 * Service, the window). Messaging Services are not emulated: a MessagingServiceSid stands for the
 * account's first number.
 */
export function submitMessage(ctx: EngineContext, input: ApiMessage): Message {
  assertMessageContent(input);
  const from = input.from ?? ctx.store.phoneNumbers.findOne("account", input.accountSid)?.number;
  if (!from) {
    throw errors.invalidParameter(
      "From",
      "The From phone number (none) is not a valid, SMS-capable inbound phone number or short code for your account.",
      21606,
    );
  }
  assertSender(ctx, ctx.store.accounts.get(input.accountSid), from, input.to);
  assertMessageSchedule(ctx, input);
  return sendMessage(ctx, { ...input, from });
}

/** Twilio's first checks of a message: content (21602) and a sender (21603). */
export function assertMessageContent(input: ApiMessage): void {
  if (!input.body && (input.mediaUrls ?? []).length === 0 && !input.contentSid) {
    throw errors.invalidParameter("Body", twilioMissingWording[21602]!, 21602);
  }
  if (!input.from && !input.messagingServiceSid) {
    throw errors.invalidParameter("From", twilioMissingWording[21603]!, 21603);
  }
}

/** Scheduling: ScheduleType with SendAt (35111), a Messaging Service (35118), 15 minutes to 35 days ahead (35114). */
export function assertMessageSchedule(ctx: EngineContext, input: ApiMessage): void {
  if (input.sendAt || input.scheduleType) {
    if (!input.sendAt || !input.scheduleType) {
      throw errors.invalidParameter(
        input.sendAt ? "ScheduleType" : "SendAt",
        "Scheduling needs both ScheduleType=fixed and SendAt.",
        35111,
      );
    }
    if (!input.messagingServiceSid) {
      throw errors.invalidParameter(
        "MessagingServiceSid",
        "Scheduled messages must be sent with a MessagingServiceSid.",
        35118,
      );
    }
    const ahead = input.sendAt - ctx.clock.now();
    if (ahead < minScheduleMs || ahead > maxScheduleMs) {
      throw errors.invalidParameter(
        "SendAt",
        "SendAt must be between 15 minutes and 35 days from now.",
        35114,
      );
    }
  }
}

/** POST to a message: Status=canceled (scheduled only) and/or Body="" (redaction), as one change. */
export function updateMessage(
  ctx: EngineContext,
  message: Message,
  update: { body?: "" | undefined; status?: "canceled" | undefined },
): Message {
  if (update.status === undefined && update.body === undefined) {
    throw errors.invalidParameter(
      "Body",
      'Give Body="" to redact the message or Status=canceled to cancel it.',
    );
  }
  return ctx.store.transact(() => {
    const canceled = update.status === "canceled" ? cancelMessage(ctx, message) : message;
    return update.body === "" ? redactMessage(ctx, canceled) : canceled;
  });
}
