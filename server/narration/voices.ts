/**
 * Which espeak-ng voice narrates each spec language, and which languages are unvoiced. espeak-ng has no
 * Filipino (Tagalog) voice; rather than read Filipino with another language's letter-to-sound rules (which
 * mispronounces most words), Filipino editions are unvoiced: audioEnabled is false and the audio endpoints
 * answer 404 'Audio not available'. See docs/narration.md.
 */
import type { LanguageCode } from '../../src/domain/languages';

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
