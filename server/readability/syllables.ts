/**
 * Syllable counts per language, for the readability formulas. English uses the `syllable` package (rules plus a
 * list of exceptions); Russian counts its vowel letters (each is one syllable); Spanish and Portuguese count
 * vowel groups, with the diphthong and hiatus rules of each language.
 */
import { syllable } from 'syllable';

const RU_VOWELS = /[аеёиоуыэюя]/giu;

export function russianSyllables(word: string): number {
  return Math.max(1, word.match(RU_VOWELS)?.length ?? 0);
}

const strip = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/** Lower case, without the silent u of que, qui, gue, gui (Spanish and Portuguese). */
const withoutSilentU = (raw: string) => raw.toLowerCase().replace(/q[uü](?=[eiéí])/g, 'q').replace(/gu(?=[eiéí])/g, 'g');

/** Counts vowel groups: each vowel starts a syllable unless it `joins` the vowel just before it. At least 1. */
function vowelGroups(word: string, isVowel: (c: string) => boolean, joins: (prev: string, c: string) => boolean): number {
  let count = 0;
  let prev = '';
  for (const c of word) {
    if (!isVowel(c)) {
      prev = '';
      continue;
    }
    if (!prev || !joins(prev, c)) count++;
    prev = c;
  }
  return Math.max(1, count);
}

/**
 * Spanish: a, e, o are strong vowels, i, u (and ü) weak. Two strong vowels side by side are two syllables (hiatus:
 * le-ón); a weak and any other vowel share one (diphthong: cie-lo, ciu-dad), unless the weak one carries the
 * accent (dí-a, ba-úl). The u of que, qui, gue, gui is silent. A final y after a vowel is part of its diphthong.
 */
export function spanishSyllables(raw: string): number {
  const w = withoutSilentU(raw).replace(/([aeiouáéíóú])y\b/g, '$1i');
  const strong = (c: string) => /[aeoáéóíú]/.test(c);
  return vowelGroups(w, (c) => /[aeiouáéíóúü]/.test(c), (prev, c) => !(strong(c) && strong(prev)));
}

/**
 * Portuguese: as Spanish, with its own vowels (ã, õ, â, ê, ô, à); falling diphthongs (ai, ei, oi, ui, au, eu, ou,
 * ão, õe, ãe) are one syllable, a vowel followed by i or u at a word's end too. A rising pair (ia, io, ua, ue at a
 * word's end: di-a, ru-a) is counted as two, as Portuguese divides it.
 */
export function portugueseSyllables(raw: string): number {
  const weak = (c: string) => c === 'i' || c === 'u';
  // A vowel joins the one before when it is the glide of a falling diphthong (a vowel then unaccented i or u; ão, õe, ãe).
  return vowelGroups(
    withoutSilentU(raw),
    (c) => /[aeiouáéíóúâêôãõàü]/.test(c),
    (prev, c) => (weak(c) && !weak(prev)) || (prev === 'ã' && (c === 'o' || c === 'e')) || (prev === 'õ' && c === 'e'),
  );
}

export function englishSyllables(word: string): number {
  return Math.max(1, syllable(strip(word)));
}
