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

/**
 * Spanish: a, e, o are strong vowels, i, u (and ü) weak. Two strong vowels side by side are two syllables (hiatus:
 * le-ón); a weak and any other vowel share one (diphthong: cie-lo, ciu-dad), unless the weak one carries the
 * accent (dí-a, ba-úl). The u of que, qui, gue, gui is silent. A final y after a vowel is part of its diphthong.
 */
export function spanishSyllables(raw: string): number {
  let w = raw.toLowerCase().replace(/q[uü](?=[eiéí])/g, 'q').replace(/gu(?=[eiéí])/g, 'g');
  w = w.replace(/([aeiouáéíóú])y\b/g, '$1i');
  const isVowel = (c: string) => /[aeiouáéíóúü]/.test(c);
  const strong = (c: string) => /[aeoáéóíú]/.test(c);
  let count = 0;
  let prev = '';
  for (const c of w) {
    if (!isVowel(c)) {
      prev = '';
      continue;
    }
    if (!prev) count++;
    else if (strong(c) && strong(prev)) count++;
    prev = c;
  }
  return Math.max(1, count);
}

/**
 * Portuguese: as Spanish, with its own vowels (ã, õ, â, ê, ô, à); falling diphthongs (ai, ei, oi, ui, au, eu, ou,
 * ão, õe, ãe) are one syllable, a vowel followed by i or u at a word's end too. A rising pair (ia, io, ua, ue at a
 * word's end: di-a, ru-a) is counted as two, as Portuguese divides it.
 */
export function portugueseSyllables(raw: string): number {
  const w = raw.toLowerCase().replace(/q[uü](?=[eiéí])/g, 'q').replace(/gu(?=[eiéí])/g, 'g');
  const isVowel = (c: string) => /[aeiouáéíóúâêôãõàü]/.test(c);
  const weak = (c: string) => c === 'i' || c === 'u';
  let count = 0;
  let prev = '';
  for (const c of w) {
    if (!isVowel(c)) {
      prev = '';
      continue;
    }
    // A new syllable unless this is the glide of a falling diphthong (a vowel then unaccented i or u; ão, õe, ãe).
    const glide = !!prev && ((weak(c) && !weak(prev)) || (prev === 'ã' && (c === 'o' || c === 'e')) || (prev === 'õ' && c === 'e'));
    if (!glide) count++;
    prev = c;
  }
  return Math.max(1, count);
}

export function englishSyllables(word: string): number {
  return Math.max(1, syllable(strip(word)));
}
