// Audio bytes for a recording: PCM WAV (8 kHz, 16-bit) and MPEG-1 Layer III, deterministic, as long as the recording.
import type { Recording } from "../domain/recording.js";

const wavRate = 8000;
/** A quiet tone marks each speech span (about -28 dBFS), one pitch per channel, so speech is visible in an editor. */
const toneAmplitude = 1300;
const toneHz = [440, 660];

/**
 * A RIFF/WAVE file: 8 kHz, 16-bit little-endian PCM, one channel per recording channel (dual recordings carry
 * the caller on channel 1 and the other party on 2). Silence, except a quiet tone during each speech span.
 */
export function recordingWav(recording: Recording): Uint8Array {
  const channels = recording.channels;
  const frames = Math.max(0, recording.duration ?? 0) * wavRate;
  const dataBytes = frames * channels * 2;
  const buffer = Buffer.alloc(44 + dataBytes);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write("WAVE", 8, "ascii");
  buffer.write("fmt ", 12, "ascii");
  buffer.writeUInt32LE(16, 16); // fmt chunk size
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(channels, 22);
  buffer.writeUInt32LE(wavRate, 24);
  buffer.writeUInt32LE(wavRate * channels * 2, 28); // byte rate
  buffer.writeUInt16LE(channels * 2, 32); // block align
  buffer.writeUInt16LE(16, 34); // bits per sample
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(dataBytes, 40);
  for (const span of recording.speech) {
    // A mono recording mixes both parties into its one channel.
    const channel = channels === 1 ? 0 : span.channel - 1;
    const hz = toneHz[span.channel - 1] ?? 440;
    const first = Math.floor((span.start_ms * wavRate) / 1000);
    const last = Math.min(frames, Math.floor((span.end_ms * wavRate) / 1000));
    for (let frame = first; frame < last; frame++) {
      const sample = Math.round(toneAmplitude * Math.sin((2 * Math.PI * hz * (frame - first)) / wavRate));
      buffer.writeInt16LE(sample, 44 + (frame * channels + channel) * 2);
    }
  }
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

// MPEG-1 Layer III at 32 kHz and 32 kbit/s: every frame is exactly 144 * 32000 / 32000 = 144 bytes and
// holds 1152 samples (36 ms), so no padding slots are ever needed.
const mp3Rate = 32_000;
const mp3FrameBytes = 144;
const samplesPerFrame = 1152;

/**
 * An MP3 of silence as long as the recording: a run of correctly framed MPEG-1 Layer III frames whose
 * side information declares no coded data (part2_3_length 0), which every decoder plays as silence.
 * Mono recordings give mono frames (17 bytes of side information), dual ones stereo (32 bytes).
 */
export function recordingMp3(recording: Recording): Uint8Array {
  const seconds = Math.max(0, recording.duration ?? 0);
  const frames = Math.ceil((seconds * mp3Rate) / samplesPerFrame);
  const stereo = recording.channels === 2;
  const frame = new Uint8Array(mp3FrameBytes);
  // Sync (11 bits), MPEG-1 (11), Layer III (01), no CRC (1).
  frame[0] = 0xff;
  frame[1] = 0xfb;
  // Bitrate index 0001 (32 kbit/s), sampling index 10 (32 kHz), no padding, private bit 0.
  frame[2] = 0x18;
  // Channel mode: 00 stereo or 11 single channel; no mode extension, not copyrighted, original, no emphasis.
  frame[3] = stereo ? 0x04 : 0xc4;
  // The side information and main data that follow stay zero: no coded audio, i.e. silence.
  const out = new Uint8Array(frames * mp3FrameBytes);
  for (let i = 0; i < frames; i++) out.set(frame, i * mp3FrameBytes);
  return out;
}
