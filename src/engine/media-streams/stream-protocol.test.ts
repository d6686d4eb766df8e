// The app's media payloads: base64 as the protocol defines it, whole groups of four with at most two `=` at the end.
import { describe, expect, it } from "vitest";
import { messages, readAppMessage } from "./stream-protocol.js";

const media = (payload: string) =>
  readAppMessage(JSON.stringify({ event: "media", streamSid: "MZ1", media: { payload } }));

describe("media payloads", () => {
  it.each(["QUJD", "AA==", "AAA=", "/+8=", Buffer.alloc(45 * 1024, 0x7f).toString("base64")])(
    "takes %s",
    (payload) => {
      expect(media(payload)).toHaveProperty("message");
    },
  );
  it.each(["***", "AB=C", "A===", "AAA", "ab-_", "QU JD", "====", "AA==AAAA"])("refuses %s", (payload) => {
    expect(media(payload)).toEqual({ error: "media message: media.payload: media.payload is not base64" });
  });
  it("refuses an empty payload as empty", () => {
    expect(media("")).toEqual({ error: "media message: media.payload: media.payload is empty" });
  });
});

describe("a media message's text", () => {
  it.each([
    [1, "inbound", 1, "/w=="],
    [4821, "outbound", 2410, Buffer.alloc(160, 0x7f).toString("base64")],
  ] as const)(
    "is JSON.stringify of the message, byte for byte (sequence %i)",
    (seq, track, chunk, payload) => {
      const sid = "MZ0123456789abcdef0123456789abcdef";
      expect(messages.mediaText(seq, sid, track, chunk, payload)).toBe(
        JSON.stringify(messages.media(seq, sid, track, chunk, payload)),
      );
    },
  );
});
