// Who may send a message to whom: the account's own numbers, its WhatsApp senders to WhatsApp users, and
// alphanumeric sender IDs where the destination's networks take them; and WhatsApp's 24-hour session.
import type { Account } from "../../domain/account.js";
import { errors } from "../../domain/errors.js";
import type { Message } from "../../domain/message.js";
import { channelOf, isAlphanumericSender, numberOf } from "../../domain/message-address.js";
import type { EngineContext } from "../context/context.js";
import { derivedLocation } from "../location/number-location.js";

/**
 * Countries whose networks take alphanumeric sender IDs without registration, as the sandbox models them
 * (fixtures override it with `carrier.alphanumeric_sender_countries`). North America never does.
 */
export const defaultAlphanumericSenderCountries: readonly string[] = [
  "AT",
  "AU",
  "BE",
  "CH",
  "DE",
  "DK",
  "ES",
  "FI",
  "FR",
  "GB",
  "IE",
  "IT",
  "NL",
  "NO",
  "NZ",
  "PL",
  "PT",
  "SE",
];

/** WhatsApp's customer service window: free-form messages only within 24 hours of the user's last message. */
export const whatsappSessionMs = 24 * 60 * 60 * 1000;

export const whatsappErrors = {
  /** Twilio 63016, as the message's error_message. */
  outsideWindow: {
    code: 63016,
    text: "Outside messaging window. For WhatsApp, use a Message Template instead",
  },
} as const;

/**
 * Twilio's sender checks for `from` -> `to` on `account`: one channel for both (21910), a WhatsApp sender the
 * account registered (63007), an alphanumeric ID where the destination takes it (21612), else one of the
 * account's numbers (21606). Throws the error Twilio answers with.
 */
export function assertSender(
  ctx: EngineContext,
  account: Account | undefined,
  from: string,
  to: string,
): void {
  if (channelOf(from) !== channelOf(to)) {
    throw errors.invalidParameter(
      "From",
      "Invalid From and To pair. From and To should be of the same channel.",
      21910,
    );
  }
  if (channelOf(from) === "whatsapp") {
    const number = numberOf(from);
    const owns = ctx.store.phoneNumbers.findOne("number", number)?.account_sid === account?.sid;
    if (!account || !owns || !account.whatsapp_senders.includes(number)) {
      throw errors.invalidParameter(
        "From",
        `Twilio could not find a Channel with the specified From address: ${from} is not a WhatsApp sender of this account.`,
        63007,
      );
    }
    return;
  }
  if (isAlphanumericSender(from)) {
    const country = derivedLocation(to).country;
    const allowed = ctx.alphanumericSenderCountries ?? defaultAlphanumericSenderCountries;
    if (!allowed.includes(country)) {
      throw errors.invalidParameter(
        "To",
        `The 'To' phone number is not currently reachable using the 'From' phone number via SMS: networks in ${country || "that country"} do not take alphanumeric sender IDs.`,
        21612,
      );
    }
    return;
  }
  const owned = ctx.store.phoneNumbers.findOne("number", from);
  if (!owned || owned.account_sid !== account?.sid) {
    throw errors.invalidParameter(
      "From",
      `The From phone number ${from} is not a valid, SMS-capable inbound phone number or short code for your account.`,
      21606,
    );
  }
}

/** True when the WhatsApp user `message.to` wrote to its sender within the last 24 hours of sandbox time. */
export function whatsappSessionOpen(ctx: EngineContext, message: Message): boolean {
  const since = ctx.clock.now() - whatsappSessionMs;
  for (const earlier of ctx.store.messages.scan({ index: "from", key: message.to, reverse: true })) {
    if (earlier.created_at < since) return false;
    if (earlier.direction === "inbound" && earlier.to === message.from) return true;
  }
  return false;
}
