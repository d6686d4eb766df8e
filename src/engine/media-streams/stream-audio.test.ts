// A speaking caller's frames: the utterance's mu-law, encoded once, read 20 ms at a time from any instant.
import alawmulaw from "alawmulaw";
import { beforeAll, describe, expect, it } from "vitest";
import { loadSpeech, speechSamples } from "../speech/speech-audio.js";
import { speechFrame } from "./stream-audio.js";
import { frameBytes } from "./stream-protocol.js";

/** What a frame was before the encoding was shared: the frame's samples, zero-padded, encoded on their own. */
function encodedAlone(samples: Int16Array, first: number): string {
  const frame = new Int16Array(frameBytes);
  frame.set(samples.subarray(first, Math.min(samples.length, first + frameBytes)));
  return Buffer.from(alawmulaw.mulaw.encode(frame)).toString("base64");
}

describe("speech frames", () => {
  beforeAll(() => loadSpeech());
  const utterance = { text: "check my balance please", start: 1000, end: 2300 };

  it("are the frame's own samples encoded, at every offset, past the words' end too", () => {
    const samples = speechSamples(utterance.text, "caller", utterance.end - utterance.start);
    for (const offset of [0, 7, 20, 333, 640, 1259, 1290, 1299]) {
      const at = utterance.start + offset;
      expect(speechFrame(utterance, "caller", at), `at +${offset} ms`).toBe(
        encodedAlone(samples, offset * 8),
      );
    }
  });

  it("another voice or text is another encoding", () => {
    const caller = speechFrame(utterance, "caller", 1200);
    expect(speechFrame(utterance, "agent", 1200)).not.toBe(caller);
    expect(speechFrame({ ...utterance, text: "something else" }, "caller", 1200)).not.toBe(caller);
  });
});
