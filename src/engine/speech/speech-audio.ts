// Spoken phrases as 8 kHz audio, fitted to the time the call's timing model gives them: synthesized, cached, or a tone.
import {
  baseWordsPerMinute,
  type Espeak,
  loadEspeak,
  maxWordsPerMinute,
  type SpeechVoice,
} from "./espeak.js";

export type { SpeechVoice } from "./espeak.js";

/** The telephone rate every recording and stream uses. */
export const speechRate = 8000;
/** Speaking rates tried, in order, when a phrase does not fit its time at the base rate. */
const fittingRates = [baseWordsPerMinute, 190, 240, 300, 370, maxWordsPerMinute];
/** Samples below this (about -50 dBFS) count as the silence eSpeak leaves around a phrase. */
const quiet = 100;
/** Cut speech fades out over 10 ms rather than clicking. */
const fadeSamples = speechRate / 100;

/** The placeholder when no synthesizer is at hand: a quiet tone (about -28 dBFS), one pitch per voice. */
const toneAmplitude = 1300;
const toneHz: Record<SpeechVoice, number> = { caller: 440, agent: 660 };

/** Phrases kept, bounded by their total samples (about 16 MB, some 17 minutes of speech) and by count. */
const cacheSampleBudget = 8 * 1024 * 1024;
const cacheEntryLimit = 2_000;

type Resample = typeof import("wave-resampler")["resample"];

/** Everything synthesis needs, loaded together on first use (importing the library loads neither). */
interface Loaded extends Espeak {
  resample: Resample;
}

let loading: Promise<Loaded | null> | null = null;
let espeak: Loaded | null = null;
let loadFailed = false;
const cache = new Map<string, Int16Array>();
let cachedSamples = 0;
let stats = { synthesized: 0, cacheHits: 0 };

/**
 * Loads the synthesizer once per process (later calls share the first). Resolves false when it cannot be had:
 * then a warning says so, once, and every phrase is the placeholder tone.
 */
export function loadSpeech(): Promise<boolean> {
  loading ??= Promise.all([loadEspeak(), import("wave-resampler")]).then(
    ([synth, resampler]) => {
      // Node loads the package's CommonJS build (the function under `default`); ESM-first loaders its ES build.
      const named = resampler as unknown as { resample?: Resample };
      const resample = named.resample ?? resampler.default.resample;
      espeak = { sampleRate: synth.sampleRate, synthesize: synth.synthesize, resample };
      return espeak;
    },
    (error: unknown) => {
      loadFailed = true;
      const reason = error instanceof Error ? error.message : String(error);
      process.emitWarning(
        `speech synthesis is unavailable (${reason}); recordings and media streams carry a tone where words are spoken. Install the optional package @echogarden/espeak-ng-emscripten for real speech.`,
        { code: "VOICE_SANDBOX_NO_SPEECH" },
      );
      return null;
    },
  );
  return loading.then((loaded) => loaded !== null);
}

/** Whether loading has finished, either way: from then on a phrase is what it will always be. */
export function speechSettled(): boolean {
  return espeak !== null || loadFailed;
}

/** Synthesis counters since the process started (benchmarks and tests read them). */
export function speechStats(): { synthesized: number; cacheHits: number; cachedSamples: number } {
  return { ...stats, cachedSamples };
}

/** Empties the phrase cache (benchmarks measure a cold cache with it). */
export function clearSpeechCache(): void {
  cache.clear();
  cachedSamples = 0;
  stats = { synthesized: 0, cacheHits: 0 };
}

/**
 * `text` spoken by `voice` as exactly `lengthMs` of 8 kHz samples: the synthesized words from the start,
 * then silence. A phrase longer than its time is spoken faster, and cut (with a short fade) if even the
 * fastest rate does not fit. Before the synthesizer has loaded, or without one, it is the placeholder tone.
 * The array may be shared with the cache: read it, never write to it.
 */
export function speechSamples(text: string, voice: SpeechVoice, lengthMs: number): Int16Array {
  const length = Math.max(0, Math.round((lengthMs * speechRate) / 1000));
  if (!espeak) return tone(voice, length);
  const key = `${voice}\u0000${length}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) {
    stats.cacheHits++;
    // Most recently used last: the oldest entries go first.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const samples = fitted(espeak, text, voice, length);
  stats.synthesized++;
  remember(key, samples);
  return samples;
}

/** Adds `samples` into `target` from sample `first` on, clipped to 16 bits; what falls past its end is left out. */
export function mixSamples(target: Int16Array, first: number, samples: Int16Array): void {
  const count = Math.min(samples.length, target.length - first);
  for (let i = Math.max(0, -first); i < count; i++) {
    target[first + i] = Math.max(-32768, Math.min(32767, target[first + i]! + samples[i]!));
  }
}

function fitted(synth: Loaded, text: string, voice: SpeechVoice, length: number): Int16Array {
  const out = new Int16Array(length);
  if (length === 0 || text.trim() === "") return out;
  let speech: Int16Array = new Int16Array(0);
  for (const rate of fittingRates) {
    speech = trimmed(resampled(synth, synth.synthesize(text, voice, rate)));
    if (speech.length <= length) break;
  }
  if (speech.length <= length) {
    out.set(speech);
    return out;
  }
  out.set(speech.subarray(0, length));
  const fade = Math.min(fadeSamples, length);
  for (let i = 0; i < fade; i++) {
    const at = length - fade + i;
    out[at] = Math.round((out[at]! * (fade - i)) / fade);
  }
  return out;
}

/** eSpeak's 22 050 Hz down to 8 kHz, low-pass filtered first so nothing above 4 kHz folds back. */
function resampled(synth: Loaded, samples: Int16Array): Int16Array {
  const floats = synth.resample(samples, synth.sampleRate, speechRate, { method: "sinc", LPF: true });
  const out = new Int16Array(floats.length);
  for (let i = 0; i < floats.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(floats[i]!)));
  return out;
}

/** Without the silence eSpeak adds around the words: they start with the utterance, its own time supplies the rest. */
function trimmed(samples: Int16Array): Int16Array {
  let start = 0;
  while (start < samples.length && Math.abs(samples[start]!) < quiet) start++;
  let end = samples.length;
  while (end > start && Math.abs(samples[end - 1]!) < quiet) end--;
  return samples.subarray(start, end);
}

function tone(voice: SpeechVoice, length: number): Int16Array {
  const hz = toneHz[voice];
  const out = new Int16Array(length);
  for (let i = 0; i < length; i++)
    out[i] = Math.round(toneAmplitude * Math.sin((2 * Math.PI * hz * i) / speechRate));
  return out;
}

function remember(key: string, samples: Int16Array): void {
  if (samples.length > cacheSampleBudget) return;
  cache.set(key, samples);
  cachedSamples += samples.length;
  for (const [oldest, kept] of cache) {
    if (cachedSamples <= cacheSampleBudget && cache.size <= cacheEntryLimit) break;
    cache.delete(oldest);
    cachedSamples -= kept.length;
  }
}
