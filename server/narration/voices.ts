/**
 * Which espeak-ng voice narrates each spec language, and which languages are unvoiced. espeak-ng has no
 * Filipino (Tagalog) voice; rather than read Filipino with another language's letter-to-sound rules (which
 * mispronounces most words), Filipino editions are unvoiced: audioEnabled is false and the audio endpoints
 * answer 404 'Audio not available'. See docs/narration.md.
 */
import { z } from 'zod';
import type { LanguageCode } from '../../src/domain/languages';
import { espeakVoiceName, FLITE_SLT } from '../../src/domain/narrationVoice';

/** The espeak-ng voice for each voiced language. The spec's `ha` is Haitian Creole (SPEC §1), espeak's `ht`. */
export const VOICES: Readonly<Record<LanguageCode, string | null>> = {
  en: 'en-us',
  es: 'es',
  ar: 'ar',
  zh: 'cmn',
  vi: 'vi',
  bn: 'bn',
  fil: null,
  ur: 'ur',
  ru: 'ru',
  ha: 'ht',
  pt: 'pt-br',
};

/** The Intl.Segmenter locale used to find word starts in each language's text. */
export const SEGMENTER_LOCALES: Readonly<Record<LanguageCode, string>> = {
  en: 'en',
  es: 'es',
  ar: 'ar',
  zh: 'zh',
  vi: 'vi',
  bn: 'bn',
  fil: 'fil',
  ur: 'ur',
  ru: 'ru',
  ha: 'ht',
  pt: 'pt',
};

export const VOICED_LANGUAGES: readonly LanguageCode[] = (Object.keys(VOICES) as LanguageCode[]).filter((l) => VOICES[l] !== null);
export const UNVOICED_LANGUAGES: readonly LanguageCode[] = (Object.keys(VOICES) as LanguageCode[]).filter((l) => VOICES[l] === null);

export function voiceFor(language: string): string | null {
  return (VOICES as Record<string, string | null | undefined>)[language] ?? null;
}

export function isVoiced(language: string): boolean {
  return voiceFor(language) !== null;
}

export function segmenterLocale(language: string): string {
  return (SEGMENTER_LOCALES as Record<string, string | undefined>)[language] ?? language;
}

/** espeak speaking rate, words per minute. Slower than espeak's 175 for early and struggling readers. @default 150 */
export const SPEAKING_RATE_WPM = 150;

/** The voices English may be narrated with (NARRATION_VOICE_EN). 'espeak' is the fallback: espeak's `en-us`. */
export const ENGLISH_VOICES = ['flite-slt', 'espeak'] as const;
export type EnglishVoice = (typeof ENGLISH_VOICES)[number];
/** @default 'flite-slt' */
export const DEFAULT_ENGLISH_VOICE: EnglishVoice = 'flite-slt';

const VoiceEnvSchema = z.object({
  NARRATION_VOICE_EN: z
    .enum(ENGLISH_VOICES, { error: `must be one of ${ENGLISH_VOICES.join(', ')}` })
    .default(DEFAULT_ENGLISH_VOICE),
});

/** NARRATION_VOICE_EN, validated: a bad value throws `Invalid environment:` with the variable's name. */
export function englishVoiceFromEnv(env: NodeJS.ProcessEnv): EnglishVoice {
  const parsed = VoiceEnvSchema.safeParse({ NARRATION_VOICE_EN: env.NARRATION_VOICE_EN === '' ? undefined : env.NARRATION_VOICE_EN });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message} (got '${env.NARRATION_VOICE_EN}')`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data.NARRATION_VOICE_EN;
}

/** The voice that narrates a language. */
export interface NarrationVoice {
  /** The name the audio answers give it (`audio.voice`): 'flite-slt', 'espeak-en-us', … */
  id: string;
  engine: 'espeak' | 'flite';
  /** The engine's own name for it: espeak's 'en-us', Flite's 'slt'. */
  engineVoice: string;
  /**
   * The voice in narration keys (`narrationKey(plain, keyVoice)`): espeak's voice name (as before Flite came, so
   * espeak narrations keep their keys), or the id for Flite. A change of voice changes the key, so the passages
   * are narrated again.
   */
  keyVoice: string;
}

/** The voice for a language, given the English choice; null for an unvoiced language (Filipino). */
export function narrationVoice(language: string, english: EnglishVoice = DEFAULT_ENGLISH_VOICE): NarrationVoice | null {
  if (language === 'en' && english === 'flite-slt') return { id: FLITE_SLT, engine: 'flite', engineVoice: 'slt', keyVoice: FLITE_SLT };
  const espeak = voiceFor(language);
  return espeak ? { id: espeakVoiceName(espeak), engine: 'espeak', engineVoice: espeak, keyVoice: espeak } : null;
}

/** The voice of an answer's id ('flite-slt', 'espeak-en-us'), or null. */
export function narrationVoiceById(id: string): NarrationVoice | null {
  if (id === FLITE_SLT) return narrationVoice('en', 'flite-slt');
  const espeak = id.startsWith('espeak-') ? id.slice('espeak-'.length) : null;
  return espeak && Object.values(VOICES).includes(espeak) ? { id, engine: 'espeak', engineVoice: espeak, keyVoice: espeak } : null;
}
