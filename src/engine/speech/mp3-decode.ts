// MP3 (and other MPEG audio) files as 8 kHz mono mu-law, decoded by mpg123 compiled to WebAssembly (mpg123-decoder), loaded on first use.
import alawmulaw from "alawmulaw";
import { resampleLinear } from "./wav-decode.js";

/** At most this much of a file is decoded: about two minutes at 128 kbit/s, far past the 5 s a <Play> counts. */
export const maxMp3Bytes = 2 * 1024 * 1024;

/** Whether the bytes start as an MPEG audio file does: an ID3 tag, or a frame's sync word. */
export function looksLikeMp3(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) return true;
  return bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
}

/** The file's audio as 8 kHz mono mu-law, or null when nothing in it decodes. Never throws. */
export async function decodeMp3(bytes: Uint8Array): Promise<Uint8Array | null> {
  if (!looksLikeMp3(bytes)) return null;
  try {
    const { MPEGDecoder } = await import("mpg123-decoder");
    const decoder = new MPEGDecoder();
    await decoder.ready;
    try {
      const decoded = decoder.decode(bytes.subarray(0, maxMp3Bytes));
      const { channelData, samplesDecoded, sampleRate } = decoded;
      if (samplesDecoded === 0 || channelData.length === 0) return null;
      const mono = new Float32Array(samplesDecoded);
      for (const channel of channelData)
        for (let i = 0; i < samplesDecoded; i++) mono[i]! += (channel[i]! * 32767) / channelData.length;
      return alawmulaw.mulaw.encode(resampleLinear(mono, sampleRate));
    } finally {
      decoder.free();
    }
  } catch {
    return null;
  }
}
