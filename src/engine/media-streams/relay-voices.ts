// ConversationRelay's providers and voices: Twilio's documented defaults, and which apply in a language (nested <Language>).
import type { RelayLanguage, RelaySpec } from "../../markup/effects.js";

/** Twilio's default voice of each text-to-speech provider (by lowercase name). */
const defaultVoices: Record<string, string> = {
  elevenlabs: "UgBBYS2sOqTuMpoF3BR0",
  google: "en-US-Journey-O",
  amazon: "Joanna-Neural",
};

/** Twilio's default speech model of each transcription provider (by lowercase name). */
const defaultModels: Record<string, string> = {
  deepgram: "nova-3-general",
  google: "telephony",
};

/** Used when the noun names no provider ("" in the spec). */
export const defaultTtsProvider = "ElevenLabs";
export const defaultTranscriptionProvider = "Deepgram";

const langOf = (spec: RelaySpec, code: string): RelayLanguage => spec.languages[code] ?? {};

/** The text-to-speech provider and voice for `language`: its `<Language>`, else the noun's, else the provider's default. */
export function ttsFor(spec: RelaySpec, language: string): { ttsProvider: string; voice: string } {
  const lang = langOf(spec, language);
  const nounProvider = spec.ttsProvider || defaultTtsProvider;
  const ttsProvider = lang.ttsProvider || nounProvider;
  // The noun's voice belongs to the noun's provider; another provider starts from its own default.
  const nounVoice = ttsProvider === nounProvider ? spec.voice : "";
  return { ttsProvider, voice: lang.voice || nounVoice || (defaultVoices[ttsProvider.toLowerCase()] ?? "") };
}

/** The transcription provider and speech model for `language`, chosen the same way. */
export function sttFor(
  spec: RelaySpec,
  language: string,
): { transcriptionProvider: string; speechModel: string } {
  const lang = langOf(spec, language);
  const nounProvider = spec.transcriptionProvider || defaultTranscriptionProvider;
  const transcriptionProvider = lang.transcriptionProvider || nounProvider;
  const nounModel = transcriptionProvider === nounProvider ? spec.speechModel : "";
  return {
    transcriptionProvider,
    speechModel: lang.speechModel || nounModel || (defaultModels[transcriptionProvider.toLowerCase()] ?? ""),
  };
}
