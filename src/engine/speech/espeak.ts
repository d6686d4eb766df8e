// eSpeak NG compiled to WebAssembly, loaded on demand: text in, 16-bit speech samples out, the same bytes every time.
import { importPackage } from "../../import-package.js";

/**
 * The optional peer package. Its name sits in a variable so neither TypeScript nor a bundler resolves it
 * at build time: it is GPL-3.0, so it is the user's choice to install it (docs/decisions.md, speech audio).
 */
const packageName = "@echogarden/espeak-ng-emscripten";

/** eSpeak's speaking rate that matches the timing model's 400 ms a word (150 words a minute). */
export const baseWordsPerMinute = 150;
/** The fastest rate eSpeak speaks at; a phrase still too long at this rate is cut. */
export const maxWordsPerMinute = 450;
/** Longest text handed to eSpeak at once, in UTF-8 bytes; longer text is cut (a phrase this long is cut anyway). */
const maxTextBytes = 16 * 1024;

/** The two voices: the caller (the simulated party) and the agent (whatever the sandbox or the app says). */
export type SpeechVoice = "caller" | "agent";
/** eSpeak pitch (0-100) per voice, so the two sides of a call sound apart. */
const voicePitch: Record<SpeechVoice, number> = { caller: 35, agent: 65 };

export interface Espeak {
  /** eSpeak's own sample rate (22 050 Hz). */
  readonly sampleRate: number;
  /** Speech for `text`: mono 16-bit samples at `sampleRate`. */
  synthesize(text: string, voice: SpeechVoice, wordsPerMinute: number): Int16Array;
}

/** The parts of the Emscripten module used here. */
interface EspeakModule {
  HEAPU8: Uint8Array;
  _webidl_malloc(bytes: number): number;
  eSpeakNGWorker: new () => EspeakWorker;
}
interface EspeakWorker {
  set_voice(name: string, language: string): number;
  set_rate(wordsPerMinute: number): void;
  set_pitch(pitch: number): void;
  get_samplerate(): number;
  synthesize(text: { ptr: number }, callback: (samples: Int16Array | null) => number): void;
}

/**
 * Loads the module and readies it. eSpeak keeps state between utterances (its intonation and wave
 * generator carry over), so the same text would sound slightly different depending on what was said before.
 * To make every synthesis depend on its input alone, the module's whole memory is copied once it is set
 * up, for each voice, and put back before every utterance (about 1 ms for its 17 MB).
 */
export async function loadEspeak(): Promise<Espeak> {
  const imported = (await importPackage(packageName)) as { default: () => Promise<EspeakModule> };
  const module = await imported.default();
  const worker = new module.eSpeakNGWorker();
  if (worker.set_voice("en-us", "en-us") !== 0) throw new Error("eSpeak NG has no en-us voice");
  // The text buffer is allocated before the snapshots, so restoring memory never frees it.
  const textAt = module._webidl_malloc(maxTextBytes + 1);
  const encoder = new TextEncoder();

  const run = (text: string): Int16Array => {
    const bytes = encoder.encode(text);
    let length = Math.min(bytes.length, maxTextBytes);
    // Never cut inside a multi-byte character.
    while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;
    module.HEAPU8.set(bytes.subarray(0, length), textAt);
    module.HEAPU8[textAt + length] = 0;
    const chunks: Int16Array[] = [];
    worker.synthesize({ ptr: textAt }, (samples) => {
      if (samples && samples.length > 0) chunks.push(samples);
      return 0;
    });
    const out = new Int16Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  };

  /** One memory image per voice and rate in use: each is the module just set up, after one warm-up utterance. */
  const snapshots = new Map<string, Uint8Array>();
  const prepared = (voice: SpeechVoice, wordsPerMinute: number): Uint8Array => {
    const key = `${voice}:${wordsPerMinute}`;
    let snapshot = snapshots.get(key);
    if (!snapshot) {
      const base = snapshots.get("base");
      if (base) module.HEAPU8.set(base);
      worker.set_pitch(voicePitch[voice]);
      worker.set_rate(wordsPerMinute);
      run("Ready.");
      snapshot = module.HEAPU8.slice();
      // Rates are few (the fitting steps), voices two: this stays small, but bound it all the same.
      if (snapshots.size < 16) snapshots.set(key, snapshot);
    }
    return snapshot;
  };
  run("Ready.");
  snapshots.set("base", module.HEAPU8.slice());

  return {
    sampleRate: worker.get_samplerate(),
    synthesize(text, voice, wordsPerMinute) {
      const rate = Math.round(Math.min(maxWordsPerMinute, Math.max(80, wordsPerMinute)));
      module.HEAPU8.set(prepared(voice, rate));
      return run(text);
    },
  };
}
