// Audio bytes for a recording: PCM WAV (8 kHz, 16-bit) and MP3, made from what was said in it, deterministic.
import alawmulaw from "alawmulaw";
import type { Recording } from "../../domain/recording.js";
import {
  loadSpeech,
  mixSamples,
  type SpeechVoice,
  speechRate,
  speechSamples,
} from "../speech/speech-audio.js";

/** Channel 1 is the caller (the simulated party), channel 2 whoever the caller hears. */
const voiceOf = (channel: number): SpeechVoice => (channel === 1 ? "caller" : "agent");
/** MP3 bit rate per channel: 16 kbit/s carries 8 kHz speech clearly. */
const mp3KbpsPerChannel = 16;
/** Whether this machine keeps 16-bit numbers low byte first, as WAV files do. */
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The recording's samples, one Int16Array per channel, as long as the recording: silence, and each span's
 * speech in its place, or the audio an app played (a mono recording mixes both parties into its one channel).
 */
export async function recordingSamples(recording: Recording): Promise<Int16Array[]> {
  await loadSpeech();
  const frames = Math.max(0, recording.duration ?? 0) * speechRate;
  const channels = Array.from({ length: recording.channels }, () => new Int16Array(frames));
  for (const span of recording.speech) {
    const target = channels[recording.channels === 1 ? 0 : span.channel - 1];
    if (!target) continue;
    const first = Math.floor((span.start_ms * speechRate) / 1000);
    if (first >= frames) continue;
    const samples =
      span.audio !== undefined
        ? alawmulaw.mulaw.decode(Buffer.from(span.audio, "base64"))
        : speechSamples(span.text, voiceOf(span.channel), span.end_ms - span.start_ms);
    const spanLength = Math.round(((span.end_ms - span.start_ms) * speechRate) / 1000);
    mixSamples(target, first, samples.subarray(0, spanLength));
  }
  return channels;
}

/**
 * A RIFF/WAVE file: 8 kHz, 16-bit little-endian PCM, one channel per recording channel (dual recordings carry
 * the caller on channel 1 and the other party on 2).
 */
export async function recordingWav(recording: Recording): Promise<Uint8Array> {
  return wavFile(await recordingSamples(recording));
}

/** A RIFF/WAVE file of these channels (as long as the first): 8 kHz, 16-bit little-endian PCM, interleaved. */
export function wavFile(channels: readonly Int16Array[]): Uint8Array {
  const count = channels.length;
  const frames = channels[0]?.length ?? 0;
  const dataBytes = frames * count * 2;
  const buffer = Buffer.alloc(44 + dataBytes);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write("WAVE", 8, "ascii");
  buffer.write("fmt ", 12, "ascii");
  buffer.writeUInt32LE(16, 16); // fmt chunk size
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(count, 22);
  buffer.writeUInt32LE(speechRate, 24);
  buffer.writeUInt32LE(speechRate * count * 2, 28); // byte rate
  buffer.writeUInt16LE(count * 2, 32); // block align
  buffer.writeUInt16LE(16, 34); // bits per sample
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(dataBytes, 40);
  if (littleEndian && (buffer.byteOffset + 44) % 2 === 0) {
    // Samples straight into the file's bytes: this machine's 16-bit order is the file's.
    const data = new Int16Array(buffer.buffer, buffer.byteOffset + 44, frames * count);
    for (let channel = 0; channel < count; channel++) {
      const samples = channels[channel]!;
      for (let frame = 0; frame < frames; frame++) data[frame * count + channel] = samples[frame]!;
    }
  } else {
    for (let frame = 0; frame < frames; frame++) {
      for (let channel = 0; channel < count; channel++) {
        buffer.writeInt16LE(channels[channel]![frame]!, 44 + (frame * count + channel) * 2);
      }
    }
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** Samples handed to the encoder at a time (a whole number of 576-sample MPEG-2.5 frames). */
const encodeChunk = 576 * 20;

/**
 * The same audio as MP3: MPEG-2.5 Layer III at 8 kHz, 16 kbit/s a channel, encoded by LAME (lamejs, loaded
 * on first use). Like every LAME file it starts with the encoder's delay (about 140 ms) and ends on a
 * whole frame, so it plays a little longer than the WAV.
 */
export async function recordingMp3(recording: Recording): Promise<Uint8Array> {
  const [channels, lame] = await Promise.all([recordingSamples(recording), import("@breezystack/lamejs")]);
  const left = channels[0] ?? new Int16Array(0);
  const right = channels[1];
  const encoder = new lame.Mp3Encoder(channels.length, speechRate, mp3KbpsPerChannel * channels.length);
  // lamejs answers signed bytes; copying them into Uint8Arrays keeps the bits and owns the memory.
  const parts: Uint8Array[] = [];
  for (let at = 0; at < left.length; at += encodeChunk) {
    const encoded = encoder.encodeBuffer(
      left.subarray(at, at + encodeChunk),
      right?.subarray(at, at + encodeChunk),
    );
    parts.push(new Uint8Array(encoded));
  }
  parts.push(new Uint8Array(encoder.flush()));
  return Buffer.concat(parts);
}
