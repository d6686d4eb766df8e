// The audio a stream carries until real speech synthesis exists: mu-law silence, and a tone while a party speaks.
import alawmulaw from "alawmulaw";
import { frameBytes } from "./stream-protocol.js";

/** The same quiet tones recordings use (recording-audio.ts): 440 Hz for the caller, 660 Hz for the other side. */
const toneAmplitude = 1300;

function toneFrame(hz: number): string {
  // 440 and 660 Hz both fit a whole number of periods in 20 ms, so frames join without clicks.
  const samples = new Int16Array(frameBytes);
  for (let i = 0; i < frameBytes; i++)
    samples[i] = Math.round(toneAmplitude * Math.sin((2 * Math.PI * hz * i) / 8000));
  return Buffer.from(alawmulaw.mulaw.encode(samples)).toString("base64");
}

/** Base64 payloads, made once: every frame of a kind is the same bytes. */
export const framePayloads = {
  silence: Buffer.alloc(frameBytes, 0xff).toString("base64"),
  callerSpeech: toneFrame(440),
  sandboxSpeech: toneFrame(660),
};
