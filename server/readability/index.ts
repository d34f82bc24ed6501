/**
 * Computed readability of an edition (docs/readability.md): Flesch–Kincaid grade level for English, and the
 * published Flesch adaptations for Spanish (Fernández-Huerta), Russian (Oborneva) and Portuguese (Martins et al.).
 * Other languages get none. The figure is ours, from the text; it is not a Lexile measure and is never shown as one.
 */
import { passagePlainText } from '../../src/domain/sanitize';
import { englishSyllables, portugueseSyllables, russianSyllables, spanishSyllables } from './syllables';

export interface TextStats {
  sentences: number;
  words: number;
  syllables: number;
}

export interface Readability {
  /** The formula's figure, rounded to 1 decimal: a US school grade for Flesch–Kincaid, a 0–100+ ease otherwise. */
  grade: number;
  /** The formula's name, which also says which scale the figure is on. */
  formula: string;
}

export const FORMULAS = {
  en: 'Flesch–Kincaid grade level',
  es: 'Fernández-Huerta reading ease',
  ru: 'Oborneva reading ease',
  pt: 'Flesch reading ease (Martins et al., Portuguese)',
} as const;

type FormulaLanguage = keyof typeof FORMULAS;

const SYLLABLES: Record<FormulaLanguage, (word: string) => number> = {
  en: englishSyllables,
  es: spanishSyllables,
  ru: russianSyllables,
  pt: portugueseSyllables,
};

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'sr', 'sra', 'srta', 'jr', 'prof', 'etc', 'vs', 'eg', 'ie', 'no', 'vol', 'fig', 'sto', 'sta', 'т', 'г', 'им', 'см', 'стр']);

/** Split one paragraph of plain text into sentences: . ! ? … (and runs of them) followed by space or the end. */
export function splitSentences(paragraph: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  const re = /[.!?…]+["'”’»)\]]*(?=\s|$)/gu;
  for (const m of paragraph.matchAll(re)) {
    const end = m.index + m[0].length;
    const before = paragraph.slice(start, m.index);
    const lastWord = /([\p{L}]+)$/u.exec(before)?.[1]?.toLowerCase();
    if (m[0] === '.' && lastWord && ABBREVIATIONS.has(lastWord)) continue;
    const sentence = paragraph.slice(start, end).trim();
    if (/\p{L}/u.test(sentence)) sentences.push(sentence);
    start = end;
  }
  const rest = paragraph.slice(start).trim();
  if (/\p{L}/u.test(rest)) sentences.push(rest);
  return sentences;
}

const WORD_RE = /\p{L}+(?:['’\-]\p{L}+)*/gu;

/** Sentences, words (runs of letters; hyphenated and apostrophe words count once) and syllables of some texts. */
export function textStats(plainTexts: readonly string[], syllables: (word: string) => number): TextStats {
  const stats: TextStats = { sentences: 0, words: 0, syllables: 0 };
  for (const text of plainTexts) {
    for (const paragraph of text.split(/\n+/)) {
      stats.sentences += splitSentences(paragraph).length;
      for (const m of paragraph.matchAll(WORD_RE)) {
        stats.words++;
        stats.syllables += m[0].split(/[-]/).reduce((n, part) => n + syllables(part.replace(/['’]/g, '')), 0);
      }
    }
  }
  return stats;
}

/** Apply a language's formula to its statistics. Null when there is no formula or no text. */
export function readabilityFromStats(language: string, stats: TextStats): Readability | null {
  if (!(language in FORMULAS) || stats.words === 0 || stats.sentences === 0) return null;
  const asl = stats.words / stats.sentences;
  const asw = stats.syllables / stats.words;
  let value: number;
  switch (language as FormulaLanguage) {
    case 'en':
      value = 0.39 * asl + 11.8 * asw - 15.59;
      break;
    case 'es':
      // 206.84 − 0.60·P − 1.02·F, P = syllables per 100 words, F = words per sentence.
      value = 206.84 - 60 * asw - 1.02 * asl;
      break;
    case 'ru':
      value = 206.835 - 1.3 * asl - 60.1 * asw;
      break;
    case 'pt':
      value = 248.835 - 1.015 * asl - 84.6 * asw;
      break;
  }
  return { grade: Math.round(value * 10) / 10, formula: FORMULAS[language as FormulaLanguage] };
}

/** The readability of an edition from its passages' plain text. */
export function readabilityOfTexts(language: string, plainTexts: readonly string[]): Readability | null {
  if (!(language in FORMULAS)) return null;
  return readabilityFromStats(language, textStats(plainTexts, SYLLABLES[language as FormulaLanguage]));
}

/** The readability of an edition from its passages' HTML. */
export function editionReadability(language: string, passagesHtml: readonly string[]): Readability | null {
  return readabilityOfTexts(language, passagesHtml.map(passagePlainText));
}
