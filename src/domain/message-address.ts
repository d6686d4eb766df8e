// Who a message is from or to: a phone number, a WhatsApp user (`whatsapp:+E.164`), or an alphanumeric sender ID.
import { z } from "zod";
import { e164Pattern } from "./fields.js";

export type MessageChannel = "sms" | "whatsapp";

export const whatsappPrefix = "whatsapp:";

/** Twilio's alphanumeric sender IDs: 1 to 11 letters, digits and spaces, at least one letter. */
export const alphanumericSenderPattern = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

export const whatsappAddressPattern = /^whatsapp:\+[1-9]\d{1,14}$/;

/** The channel an address is on: `whatsapp:` addresses are WhatsApp, everything else SMS/MMS. */
export const channelOf = (address: string): MessageChannel =>
  address.startsWith(whatsappPrefix) ? "whatsapp" : "sms";

/** The phone number behind an address (`whatsapp:+1415...` is `+1415...`). */
export const numberOf = (address: string): string =>
  address.startsWith(whatsappPrefix) ? address.slice(whatsappPrefix.length) : address;

/** True for an alphanumeric sender ID rather than a number. */
export const isAlphanumericSender = (address: string): boolean =>
  !e164Pattern.test(address) && alphanumericSenderPattern.test(address);

/** A message's recipient: a number, or a WhatsApp user as `whatsapp:+E.164`. */
export const messageRecipient = z
  .string()
  .refine(
    (value) => e164Pattern.test(value) || whatsappAddressPattern.test(value),
    "must be an E.164 number such as +14155550100, or whatsapp: followed by one",
  );

/** A message's sender: a number, `whatsapp:` and a number, or an alphanumeric sender ID. */
export const messageSender = z
  .string()
  .refine(
    (value) =>
      e164Pattern.test(value) || whatsappAddressPattern.test(value) || alphanumericSenderPattern.test(value),
    "must be an E.164 number, whatsapp: followed by one, or an alphanumeric sender ID of 1 to 11 letters, digits and spaces",
  );
