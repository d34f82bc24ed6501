/** A language the product supports (SPEC §1). */
export interface LanguageInfo {
  code: LanguageCode;
  name: string;
  rightToLeft: boolean;
}

export const LANGUAGE_CODES = ['en', 'es', 'ar', 'zh', 'vi', 'bn', 'fil', 'ur', 'ru', 'ha', 'pt'] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

/** The supported languages, in the spec's order. */
export const LANGUAGES: readonly LanguageInfo[] = [
  { code: 'en', name: 'English', rightToLeft: false },
  { code: 'es', name: 'Spanish', rightToLeft: false },
  { code: 'ar', name: 'Arabic', rightToLeft: true },
  { code: 'zh', name: 'Chinese', rightToLeft: false },
  { code: 'vi', name: 'Vietnamese', rightToLeft: false },
  { code: 'bn', name: 'Bengali', rightToLeft: false },
  { code: 'fil', name: 'Filipino', rightToLeft: false },
  { code: 'ur', name: 'Urdu', rightToLeft: true },
  { code: 'ru', name: 'Russian', rightToLeft: false },
  { code: 'ha', name: 'Haitian Creole', rightToLeft: false },
  { code: 'pt', name: 'Portuguese', rightToLeft: false },
];

/** @default 'en' */
export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export function isLanguageCode(value: string): value is LanguageCode {
  return (LANGUAGE_CODES as readonly string[]).includes(value);
}

export function languageInfo(code: LanguageCode): LanguageInfo {
  const found = LANGUAGES.find((l) => l.code === code);
  if (!found) throw new Error(`Unknown language ${code}`);
  return found;
}
