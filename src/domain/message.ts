// A message: SMS or MMS, outbound or inbound, with its delivery status and price.
import { z } from "zod";
import { decimalString, httpMethod, instant } from "./fields.js";

export const messageDirections = ["inbound", "outbound-api", "outbound-call", "outbound-reply"] as const;
export type MessageDirection = (typeof messageDirections)[number];

/** Twilio's message statuses. */
export const messageStatuses = [
  "queued",
  "sending",
  "sent",
  "failed",
  "delivered",
  "undelivered",
  "receiving",
  "received",
  "accepted",
  "scheduled",
  "read",
  "partially_delivered",
  "canceled",
] as const;
export type MessageStatus = (typeof messageStatuses)[number];

/** One media item of an MMS: Twilio's Media subresource (`ME` sid), its type, and where its content comes from. */
export const messageMediaSchema = z.object({
  sid: z.string().regex(/^ME[0-9a-f]{32}$/),
  content_type: z.string(),
  /** The content's source: the MediaUrl given on send, or the sender's file on an inbound MMS. */
  url: z.string(),
});
export type MessageMedia = z.infer<typeof messageMediaSchema>;

export const messageSchema = z.object({
  /** SM for SMS, MM for messages with media. */
  sid: z.string().regex(/^(SM|MM)[0-9a-f]{32}$/),
  account_sid: z.string(),
  messaging_service_sid: z.string().nullable(),
  direction: z.enum(messageDirections),
  from: z.string(),
  to: z.string(),
  body: z.string(),
  media_urls: z.array(z.string()),
  /** The media items still held (a deleted one is gone; `num_media` keeps the count sent). */
  media: z.array(messageMediaSchema).default([]),
  num_segments: z.number().int(),
  num_media: z.number().int(),
  /** How the body is carried: GSM-7 (160/153 characters a segment) or UCS-2 (70/67). */
  encoding: z.enum(["GSM-7", "UCS-2"]),
  status: z.enum(messageStatuses),
  error_code: z.number().int().nullable(),
  error_message: z.string().nullable(),
  price: decimalString.nullable(),
  price_unit: z.string(),
  status_callback: z.string().nullable(),
  status_callback_method: httpMethod,
  /** Scheduled send time (ScheduleType=fixed), if any. */
  send_at: instant.nullable(),
  /** A content template (`HX` ContentSid): WhatsApp takes one outside the 24-hour session. */
  content_sid: z.string().nullable().default(null),
  date_sent: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});
export type Message = z.infer<typeof messageSchema>;
