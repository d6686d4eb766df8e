// MMS media as Twilio's Media subresource: a sid per item derived from the message, its content type, its removal.
import { createHash } from "node:crypto";
import type { Message, MessageMedia } from "../../domain/message.js";
import type { EngineContext } from "../context/context.js";
import { recordEvent } from "../context/events.js";

/** Content types by file extension, for media whose type nobody stated (Twilio reads it from the file). */
const typesByExtension: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  mp3: "audio/mpeg",
  mp4: "video/mp4",
  wav: "audio/wav",
  ogg: "audio/ogg",
  amr: "audio/amr",
  "3gp": "video/3gpp",
  pdf: "application/pdf",
  vcf: "text/vcard",
  txt: "text/plain",
  csv: "text/csv",
};

export function contentTypeOf(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not a URL: read the extension off the string itself.
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? "";
  return typesByExtension[extension] ?? "application/octet-stream";
}

/**
 * The message's media items. Sids derive from the message sid and position (not from the id generator), so
 * adding media to the record leaves every other id of a seeded run as it was.
 */
export function mediaOf(messageSid: string, urls: string[], contentTypes: string[] = []): MessageMedia[] {
  return urls.map((url, i) => ({
    sid: `ME${createHash("sha256").update(`${messageSid}/${i}`).digest("hex").slice(0, 32)}`,
    content_type: contentTypes[i] ?? contentTypeOf(url),
    url,
  }));
}

/** Twilio lets a message's media be deleted; the message keeps its body and `num_media`. */
export function deleteMedia(ctx: EngineContext, message: Message, media: MessageMedia): Message {
  return ctx.store.transact(() => {
    const updated = ctx.store.messages.replace({
      ...message,
      media: message.media.filter((m) => m.sid !== media.sid),
      updated_at: ctx.clock.now(),
    });
    recordEvent(ctx, "message.media_deleted", message.account_sid, "message", updated);
    return updated;
  });
}
