// Inbound messages: one arrives at a sandbox number, is recorded, posted to the number's SmsUrl, and answered.

import type { Account } from "../../domain/account.js";
import { errors } from "../../domain/errors.js";
import type { Message } from "../../domain/message.js";
import { channelOf, numberOf } from "../../domain/message-address.js";
import { parseMarkup } from "../../markup/parse.js";
import { numberSmsHandler } from "../accounts/applications.js";
import { billMessage } from "../billing/billing.js";
import { apiVersion } from "../callbacks/voice-params.js";
import { smsCookies } from "../callbacks/webhook-cookies.js";
import { recordEvent } from "../context/events.js";
import { locateNumber, locationParams } from "../location/number-location.js";
import { startMessage, stepAfter } from "./message-delivery.js";
import type { MessageFlights } from "./message-status.js";
import { sendMessage, sendMessageOrFail } from "./messages.js";

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

/**
 * A message arrives at one of the sandbox's numbers: checked (a wallet that cannot cover its price refuses
 * it, 402 with 20042, as it refuses inbound rings), recorded as received and charged, posted to its SmsUrl.
 */
export function receiveMessage(flights: MessageFlights, input: InboundMessage): Message {
  const { ctx } = flights.services;
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
    stepAfter(flights, 0, `sms ${message.sid}`, () =>
      postToSmsUrl(flights, { message, input, whatsapp, account, url: smsUrl, method }),
    );
  }
  return message;
}

interface SmsPost {
  message: Message;
  input: InboundMessage;
  whatsapp: boolean;
  account: Account;
  url: string;
  method: "GET" | "POST";
}

/** Posts the received message to the SmsUrl; the answer's <Message> verbs are sent as replies. */
async function postToSmsUrl(
  flights: MessageFlights,
  { message, input, whatsapp, account, url, method }: SmsPost,
) {
  const { services } = flights;
  const params = smsParams(flights, message, input, whatsapp);
  await services.webhooks().idle();
  const result = await services.webhooks().request({
    kind: "sms-markup",
    url,
    method,
    params,
    accountSid: message.account_sid,
    authToken: account.auth_token,
    messageSid: message.sid,
    orderingKey: message.sid,
    cookies: smsCookies(message.from, message.to),
  });
  if (!result.ok || result.body.trim() === "") return;
  replyFrom(flights, message, result.body);
}

/** The SmsUrl's parameters: the message, its media, and the WhatsApp user or the numbers' locations. */
function smsParams(
  flights: MessageFlights,
  message: Message,
  input: InboundMessage,
  whatsapp: boolean,
): Record<string, string> {
  const { ctx } = flights.services;
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
      `${flights.services.publicBaseUrl()}/${apiVersion}/Accounts/${message.account_sid}/Messages/${message.sid}/Media/${media.sid}`;
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
  return params;
}

/**
 * Each <Message> in the answer becomes an outbound-reply (to the sender, from the number, unless set); one
 * the wallet cannot cover is stored failed with 20042 and the replies after it are still tried.
 */
function replyFrom(flights: MessageFlights, inbound: Message, markup: string) {
  const { ctx } = flights.services;
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
    const reply = sendMessageOrFail(ctx, {
      accountSid: inbound.account_sid,
      from: verb.attrs.from ?? inbound.to,
      to: verb.attrs.to ?? inbound.from,
      body: bodyNode ? bodyNode.text : verb.children.length === 0 ? verb.text : "",
      mediaUrls: media,
      direction: "outbound-reply",
      statusCallback: verb.attrs.statusCallback ?? null,
      statusCallbackMethod: verb.attrs.method?.toUpperCase() === "GET" ? "GET" : "POST",
    });
    startMessage(flights, reply);
  }
}
