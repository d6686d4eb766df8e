// A WAV file read as a call hears it: PCM (8 or 16-bit), mu-law or a-law, any rate and channels, to 8 kHz mono mu-law.
import alawmulaw from "alawmulaw";

const rate = 8000;
const formatPcm = 1;
const formatAlaw = 6;
const formatMulaw = 7;
const formatExtensible = 0xfffe;

/** The file's audio as 8 kHz mono mu-law (8 bytes a millisecond), or null for a body that is no WAV this reads. */
export function decodeWav(bytes: Uint8Array): Uint8Array | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE") return null;
  let format: { code: number; channels: number; sampleRate: number; bits: number } | null = null;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt " && size >= 16 && body + 16 <= bytes.length) {
      let code = view.getUint16(body, true);
      if (code === formatExtensible && size >= 26) code = view.getUint16(body + 24, true);
      format = {
        code,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === "data" && format) {
      return toMulaw(bytes.subarray(body, Math.min(bytes.length, body + size)), format);
    }
    at = body + size + (size % 2);
  }
  return null;
}

function toMulaw(
  data: Uint8Array,
  f: { code: number; channels: number; sampleRate: number; bits: number },
): Uint8Array | null {
  if (f.channels < 1 || f.channels > 16 || f.sampleRate < 1000 || f.sampleRate > 384_000) return null;
  const width = f.code === formatPcm ? f.bits / 8 : 1;
  const known =
    (f.code === formatPcm && (f.bits === 8 || f.bits === 16)) ||
    ((f.code === formatAlaw || f.code === formatMulaw) && f.bits === 8);
  if (!known) return null;
  const frames = Math.floor(data.length / (width * f.channels));
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const sample = (i: number): number => {
    if (f.code === formatMulaw) return alawmulaw.mulaw.decodeSample(data[i]!);
    if (f.code === formatAlaw) return alawmulaw.alaw.decodeSample(data[i]!);
    return width === 1 ? (data[i]! - 128) << 8 : view.getInt16(i * 2, true);
  };
  const mono = new Float64Array(frames);
  for (let n = 0; n < frames; n++) {
    let sum = 0;
    for (let c = 0; c < f.channels; c++) sum += sample(n * f.channels + c);
    mono[n] = sum / f.channels;
  }
  return alawmulaw.mulaw.encode(resampleLinear(mono, f.sampleRate));
}

/** Linear interpolation to 8 kHz, averaging over each output step when the source is faster (a plain low-pass). */
export function resampleLinear(mono: Float64Array | Float32Array, from: number): Int16Array {
  const length = Math.floor((mono.length * rate) / from);
  const out = new Int16Array(length);
  const step = from / rate;
  for (let i = 0; i < length; i++) {
    const start = i * step;
    let value: number;
    if (step > 1) {
      const a = Math.floor(start);
      const b = Math.min(mono.length, Math.max(a + 1, Math.floor(start + step)));
      let sum = 0;
      for (let k = a; k < b; k++) sum += mono[k]!;
      value = sum / (b - a);
    } else {
      const a = Math.floor(start);
      const t = start - a;
      value = mono[a]! * (1 - t) + (mono[a + 1] ?? mono[a]!) * t;
    }
    out[i] = Math.max(-32768, Math.min(32767, Math.round(value)));
  }
  return out;
}
