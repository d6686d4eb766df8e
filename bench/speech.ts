// Speech synthesis: eSpeak NG's load time, milliseconds of work per second of speech cold and cached, and a 60 s recording's WAV and MP3.
// `npx tsx bench/speech.ts` after `npm run build`; every figure from this one fresh process.
import { distUrl, fmt } from "./lib.js";

interface SpeechModule {
  loadSpeech(): Promise<boolean>;
  speechSamples(text: string, voice: "caller" | "agent", lengthMs: number): Int16Array;
  clearSpeechCache(): void;
}
interface AudioModule {
  recordingWav(recording: unknown): Promise<Uint8Array>;
  recordingMp3(recording: unknown): Promise<Uint8Array>;
}

export interface SpeechBenchResult {
  name: string;
  loadMs: number;
  /** Work per second of speech made, first synthesis of each phrase. */
  coldMsPerSecond: number;
  /** The same phrases again, from the cache. */
  cachedMsPerSecond: number;
  wavColdMs: number;
  wavCachedMs: number;
  mp3Ms: number;
}

const phrases = [
  "Thank you for calling, how can I help you today?",
  "Press one for sales, press two for support, or stay on the line for an operator.",
  "Your appointment is confirmed for Tuesday at three in the afternoon.",
  "I would like to check the balance on my account please.",
  "Please say or enter your account number, followed by the pound key.",
  "We are sorry, all of our agents are busy. Your call is important to us.",
  "Goodbye.",
  "The quick brown fox jumps over the lazy dog.",
];
/** The timing model's length of a phrase: 400 ms a word, at least 1 s. */
const lengthOf = (text: string) => Math.max(1000, text.split(/\s+/).length * 400);

export async function benchSpeech(): Promise<SpeechBenchResult> {
  const speech = (await import(distUrl("engine/speech/speech-audio.js"))) as SpeechModule;
  const audio = (await import(distUrl("engine/recordings/recording-audio.js"))) as AudioModule;
  let at = performance.now();
  const loaded = await speech.loadSpeech();
  const loadMs = performance.now() - at;
  if (!loaded)
    throw new Error("speech synthesis did not load: is @echogarden/espeak-ng-emscripten installed?");

  const seconds = phrases.reduce((sum, text) => sum + lengthOf(text) / 1000, 0) * 2;
  const pass = () => {
    const start = performance.now();
    for (const voice of ["caller", "agent"] as const) {
      for (const text of phrases) speech.speechSamples(text, voice, lengthOf(text));
    }
    return performance.now() - start;
  };
  const coldMsPerSecond = pass() / seconds;
  const cachedMsPerSecond = pass() / seconds;

  // A 60 s dual recording: the phrases one after another, the two voices taking turns.
  const spans = [];
  let startMs = 500;
  for (let i = 0; startMs < 58_000; i++) {
    const text = phrases[i % phrases.length]!;
    const endMs = Math.min(60_000, startMs + lengthOf(text));
    spans.push({ channel: (i % 2) + 1, text, start_ms: startMs, end_ms: endMs });
    startMs = endMs + 700;
  }
  const recording = { channels: 2, duration: 60, speech: spans };
  speech.clearSpeechCache();
  at = performance.now();
  await audio.recordingWav(recording);
  const wavColdMs = performance.now() - at;
  at = performance.now();
  await audio.recordingWav(recording);
  const wavCachedMs = performance.now() - at;
  at = performance.now();
  await audio.recordingMp3(recording);
  const mp3Ms = performance.now() - at;

  const result = {
    name: "speech synthesis",
    loadMs,
    coldMsPerSecond,
    cachedMsPerSecond,
    wavColdMs,
    wavCachedMs,
    mp3Ms,
  };
  console.log("Speech synthesis (eSpeak NG in WebAssembly, 8 kHz)");
  console.log(`  load (import + init + voice):      ${fmt(loadMs)} ms`);
  console.log(`  cold, per second of speech:        ${cachedFmt(coldMsPerSecond)} ms`);
  console.log(`  cached, per second of speech:      ${cachedFmt(cachedMsPerSecond)} ms`);
  console.log(`  60 s dual recording, WAV cold:     ${fmt(wavColdMs)} ms`);
  console.log(`  60 s dual recording, WAV cached:   ${fmt(wavCachedMs)} ms`);
  console.log(`  60 s dual recording, MP3 (cached): ${fmt(mp3Ms)} ms\n`);
  return result;
}

const cachedFmt = (ms: number) => (ms < 10 ? ms.toFixed(3) : fmt(ms));

if (import.meta.url === `file://${process.argv[1]}`) await benchSpeech();
