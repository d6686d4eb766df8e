// Reads the WAV files the sandbox serves: header fields, and each channel as 16-bit samples.

/** A WAV's header fields and its channels as samples. */
export function readWav(bytes: Uint8Array) {
  const wav = Buffer.from(bytes);
  const channels = wav.readUInt16LE(22);
  const frames = wav.readUInt32LE(40) / (2 * channels);
  return {
    riff: wav.toString("ascii", 0, 4) + wav.toString("ascii", 8, 12),
    channels,
    rate: wav.readUInt32LE(24),
    bits: wav.readUInt16LE(34),
    frames,
    channel: (c: number) =>
      Int16Array.from({ length: frames }, (_, i) => wav.readInt16LE(44 + (i * channels + c) * 2)),
  };
}
