/**
 * Word analysis for decode mode: align the spelling with the CMU pronunciation, split the word into syllables by
 * its sounds, and find the phonics cues (digraphs, vowel teams, r-controlled vowels, silent letters, consonant+le).
 * The result refers to letter positions only; a word never changes its letters.
 */
import { align, type AlignedUnit, type Alignment } from './align';
import type { PronouncingDictionary, Pronunciation } from './cmu';
import { isHeartWord } from './heartWords';
import { CUE_DIGRAPHS, isVowelPhone } from './units';

export type Cue = 'digraph' | 'team' | 'r' | 'silent' | 'silent-e';

export interface Segment {
  /** Letter range [start, end) in the word. */
  start: number;
  end: number;
  /** The cue of these letters, or null for plain letters. */
  cue: Cue | null;
}

export interface Syllable {
  start: number;
  end: number;
  /** A consonant + le syllable (ta-ble, lit-tle). */
  cle: boolean;
  segments: Segment[];
}

export interface WordAnalysis {
  /** The word as written. */
  word: string;
  heart: boolean;
  syllables: Syllable[];
}

/** Suffixes whose start is a syllable break (when the stem is a real word and its pronunciation confirms it). */
const SUFFIXES: readonly { suffix: string; phones: string[][]; dropE: boolean; yToI: boolean; plural: boolean }[] = [
  { suffix: 'ing', phones: [['IH', 'NG']], dropE: true, yToI: false, plural: true },
  { suffix: 'ed', phones: [['IH', 'D'], ['AH', 'D']], dropE: true, yToI: true, plural: false },
  { suffix: 'er', phones: [['ER']], dropE: true, yToI: true, plural: true },
  { suffix: 'est', phones: [['IH', 'S', 'T'], ['AH', 'S', 'T']], dropE: true, yToI: true, plural: false },
  { suffix: 'es', phones: [['IH', 'Z'], ['AH', 'Z']], dropE: true, yToI: true, plural: false },
  { suffix: 'en', phones: [['AH', 'N']], dropE: true, yToI: false, plural: true },
  { suffix: 'y', phones: [['IY']], dropE: false, yToI: false, plural: false },
  { suffix: 'ish', phones: [['IH', 'SH']], dropE: true, yToI: false, plural: false },
  // consonant suffixes: the break is before them even where the sounds could start a syllable (close-ly)
  { suffix: 'ly', phones: [['L', 'IY']], dropE: false, yToI: false, plural: false },
  { suffix: 'ful', phones: [['F', 'AH', 'L'], ['F', 'UH', 'L']], dropE: false, yToI: true, plural: false },
  { suffix: 'less', phones: [['L', 'AH', 'S'], ['L', 'IH', 'S']], dropE: false, yToI: true, plural: false },
  { suffix: 'ness', phones: [['N', 'AH', 'S'], ['N', 'IH', 'S']], dropE: false, yToI: true, plural: false },
  { suffix: 'ment', phones: [['M', 'AH', 'N', 'T']], dropE: false, yToI: false, plural: true },
];
/** Inflections after which a word ending in ff, ll, ss or zz keeps its double letters whole (fill-ing). */
const INFLECTIONS = new Set(['ing', 'ed', 'er', 'est', 'es', 's', 'ings', 'ers']);
const SUFFIX_SET = new Set(SUFFIXES.map((s) => s.suffix).concat(['s']));

/** Legal English syllable onsets of two or three consonants (single consonants are legal except NG). */
const CLUSTERS = new Set(
  [
    'P R', 'P L', 'B R', 'B L', 'T R', 'D R', 'K R', 'K L', 'G R', 'G L', 'F R', 'F L', 'TH R', 'SH R', 'S P', 'S T',
    'S K', 'S M', 'S N', 'S L', 'S W', 'S F', 'K W', 'T W', 'D W', 'G W', 'TH W', 'P Y', 'B Y', 'F Y', 'M Y', 'K Y',
    'HH Y', 'V Y', 'S P R', 'S P L', 'S T R', 'S K R', 'S K W', 'S K Y', 'S P Y',
  ],
);

function legalOnset(phones: readonly string[]): boolean {
  if (phones.length === 0) return true;
  if (phones.length === 1) return phones[0] !== 'NG';
  return CLUSTERS.has(phones.join(' '));
}

/** Short words that are stems and compound parts without needing inflected forms as evidence (up-on, in-to). */
const SHORT_WORDS = new Set(['in', 'on', 'up', 'to', 'be', 'an', 'at', 'it', 'by', 'so', 'no', 'we', 'he', 'me', 'my', 'go', 'us', 'or', 'as', 'out', 'off', 'any', 'some', 'every', 'one', 'thing', 'where', 'what', 'how', 'self', 'body', 'time', 'day', 'way', 'side', 'ever']);

const VOWEL_LETTERS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
const isConsonantLetter = (ch: string) => /[a-z]/.test(ch) && !VOWEL_LETTERS.has(ch);

function samePhones(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/** The lookup key of a written word: lower case, ’ as ', diacritics dropped. Null if a letter is not a–z. */
export function lookupKey(chars: readonly string[]): string | null {
  let key = '';
  for (const ch of chars) {
    const c = ch === '’' || ch === 'ʼ' ? "'" : ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if (!/^[a-z']$/.test(c)) return null;
    key += c;
  }
  return key;
}

interface Nucleus {
  first: number;
  last: number;
  unit: AlignedUnit;
}

export class WordAnalyzer {
  private readonly cache = new Map<string, Omit<WordAnalysis, 'word'> | null>();

  constructor(private readonly dict: PronouncingDictionary) {}

  /** Analyse one word (an array of its characters). Null when the word is unknown: show it as plain text. */
  analyze(word: string | readonly string[]): WordAnalysis | null {
    const chars = typeof word === 'string' ? [...word] : word;
    const text = chars.join('');
    const key = lookupKey(chars);
    if (key === null || !/[a-z]/.test(key) || key.startsWith("'") || (key.endsWith("'") && !key.endsWith("s'"))) return null;
    let result = this.cache.get(key);
    if (result === undefined) {
      result = this.compute(key);
      if (this.cache.size > 20_000) this.cache.clear();
      this.cache.set(key, result);
    }
    return result ? { word: text, ...result } : null;
  }

  private pronunciations(key: string): Pronunciation[] {
    const direct = this.dict.lookup(key);
    if (direct.length) return direct;
    // A possessive or plural with an apostrophe that the dictionary lacks: the base word + s.
    const m = /^(.+)'s$/.exec(key) ?? /^(.+s)'$/.exec(key);
    if (m) {
      const base = this.dict.lookup(m[1]);
      if (key.endsWith("'")) return base;
      return base.flatMap((p) =>
        (['Z', 'S'] as const).map((s) => ({ phones: [...p.phones, s], stress: [...p.stress, -1] })).concat([
          { phones: [...p.phones, 'IH', 'Z'], stress: [...p.stress, 0, -1] },
        ]),
      );
    }
    return this.derived(key);
  }

  /**
   * A pronunciation for an inflected form the dictionary lacks (hummed, squealed, foragers): the stem's, with the
   * ending's sounds.
   */
  private derived(key: string, depth = 0): Pronunciation[] {
    const VOICELESS = new Set(['P', 'T', 'K', 'F', 'TH']);
    const SIBILANT = new Set(['S', 'Z', 'SH', 'ZH', 'CH', 'JH']);
    const add = (p: Pronunciation, phones: string[], stress: number[]): Pronunciation => ({
      phones: [...p.phones, ...phones],
      stress: [...p.stress, ...stress],
    });
    const ending: Record<string, (p: Pronunciation) => Pronunciation> = {
      s: (p) => {
        const last = p.phones.at(-1)!;
        return SIBILANT.has(last) ? add(p, ['IH', 'Z'], [0, -1]) : add(p, [VOICELESS.has(last) ? 'S' : 'Z'], [-1]);
      },
      ed: (p) => {
        const last = p.phones.at(-1)!;
        return last === 'T' || last === 'D' ? add(p, ['IH', 'D'], [0, -1]) : add(p, [VOICELESS.has(last) || SIBILANT.has(last) && last !== 'Z' && last !== 'ZH' && last !== 'JH' ? 'T' : 'D'], [-1]);
      },
      ing: (p) => add(p, ['IH', 'NG'], [0, -1]),
      er: (p) => add(p, ['ER'], [0]),
      est: (p) => add(p, ['IH', 'S', 'T'], [0, -1, -1]),
      ly: (p) => add(p, ['L', 'IY'], [-1, 0]),
      y: (p) => add(p, ['IY'], [0]),
    };
    const stems: [stem: string, end: string][] = [];
    const undouble = (s: string) => (s.length >= 3 && s.at(-1) === s.at(-2) ? [s.slice(0, -1)] : []);
    if (key.endsWith('ies')) stems.push([`${key.slice(0, -3)}y`, 's']);
    if (key.endsWith('ied')) stems.push([`${key.slice(0, -3)}y`, 'ed']);
    if (key.endsWith('es')) stems.push([key.slice(0, -2), 's']);
    if (key.endsWith('s') && !key.endsWith('ss')) stems.push([key.slice(0, -1), 's']);
    for (const suffix of ['ed', 'ing', 'er', 'est']) {
      if (!key.endsWith(suffix)) continue;
      const stem = key.slice(0, -suffix.length);
      for (const s of [stem, `${stem}e`, ...undouble(stem)]) stems.push([s, suffix]);
      if (suffix !== 'ing' && stem.endsWith('i')) stems.push([`${stem.slice(0, -1)}y`, suffix]);
    }
    if (key.endsWith('d') && key.endsWith('ed')) stems.push([key.slice(0, -1), 'ed']);
    if (key.endsWith('r') && key.endsWith('er')) stems.push([key.slice(0, -1), 'er']);
    if (key.endsWith('ly')) stems.push([key.slice(0, -2), 'ly']);
    if (key.endsWith('y') && !key.endsWith('ly')) for (const s of [key.slice(0, -1), ...undouble(key.slice(0, -1))]) stems.push([s, 'y']);
    const out: Pronunciation[] = [];
    for (const [stem, end] of stems) {
      if (stem.length < 2) continue;
      const base = this.dict.lookup(stem);
      const prons = base.length ? base : depth === 0 ? this.derived(stem, 1) : [];
      for (const p of prons.slice(0, 2)) out.push(ending[end](p));
    }
    return out;
  }

  private compute(key: string): Omit<WordAnalysis, 'word'> | null {
    const prons = this.pronunciations(key).slice(0, 4);
    let best: { alignment: Alignment; pron: Pronunciation; score: number } | null = null;
    prons.forEach((pron, index) => {
      const alignment = align(key, pron.phones);
      if (!alignment) return;
      const score = alignment.cost + index * 0.3;
      if (!best || score < best.score - 1e-9) best = { alignment, pron, score };
    });
    const heart = isHeartWord(key);
    if (!best) {
      // A heart word is marked as a whole, so it needs no alignment (eyes).
      return heart ? { heart, syllables: [{ start: 0, end: key.length, cle: false, segments: [{ start: 0, end: key.length, cue: null }] }] } : null;
    }
    const { alignment, pron } = best as { alignment: Alignment; pron: Pronunciation };
    const breaks = this.syllableBreaks(key, alignment.units, pron);
    return { heart, syllables: this.cues(key, alignment.units, breaks, heart) };
  }

  /** Phoneme positions where a stem or a compound's first word ends, confirmed by the pronunciations. */
  private morphBreaks(key: string, phones: readonly string[]): Set<number> {
    const out = new Set<number>();
    const matchStem = (stem: string, rests: readonly (readonly string[])[], suffix: string) => {
      if (stem.length < 2 || !this.isWordStem(stem, key, suffix)) return;
      for (const sp of this.dict.lookup(stem)) {
        if (sp.phones.length >= phones.length || !samePhones(sp.phones, phones.slice(0, sp.phones.length))) continue;
        const rest = phones.slice(sp.phones.length);
        if (rests.some((r) => samePhones(r, rest)) && sp.phones.some(isVowelPhone)) out.add(sp.phones.length);
      }
    };
    const endings = SUFFIXES.flatMap((s) => [
      s,
      ...(s.plural ? [{ ...s, suffix: `${s.suffix}s`, phones: s.phones.flatMap((p) => [[...p, 'Z'], [...p, 'S']]) }] : []),
    ]);
    for (const s of endings) {
      if (!key.endsWith(s.suffix) || key.length - s.suffix.length < 2) continue;
      const stem = key.slice(0, -s.suffix.length);
      matchStem(stem, s.phones, s.suffix);
      if (s.dropE) matchStem(`${stem}e`, s.phones, s.suffix);
      if (stem.length >= 3 && stem.at(-1) === stem.at(-2) && isConsonantLetter(stem.at(-1)!)) matchStem(stem.slice(0, -1), s.phones, s.suffix);
      if (s.yToI && stem.endsWith('i')) matchStem(`${stem.slice(0, -1)}y`, s.phones, s.suffix);
    }
    // Compounds: two dictionary words whose pronunciations, joined, are the word's (sun-flower, up-on). A
    // suffix found above wins.
    if (!key.includes("'") && out.size === 0) {
      for (let c = key.length - 2; c >= 2; c--) {
        const a = key.slice(0, c);
        const b = key.slice(c);
        if (!this.dict.has(a) || !this.dict.has(b) || SUFFIX_SET.has(b)) continue;
        if ((a.length < 3 && !SHORT_WORDS.has(a)) || (b.length < 3 && !SHORT_WORDS.has(b))) continue;
        if (!this.isWordStem(a, key) || !this.isWordStem(b, key)) continue;
        for (const pa of this.dict.lookup(a)) {
          if (!pa.phones.some(isVowelPhone) || !samePhones(pa.phones, phones.slice(0, pa.phones.length))) continue;
          const rest = phones.slice(pa.phones.length);
          if (rest.some(isVowelPhone) && this.dict.lookup(b).some((pb) => samePhones(pb.phones, rest))) out.add(pa.phones.length);
        }
      }
    }
    return out;
  }

  /**
   * Whether a dictionary entry is a real stem rather than a name or an abbreviation that happens to be spelled
   * like the start of the word (wat-er, aft-er, mist-er): it must have another inflected form in the dictionary.
   */
  private isWordStem(stem: string, word: string, suffix?: string): boolean {
    if (SHORT_WORDS.has(stem)) return true;
    const bare = stem.endsWith('e') ? stem.slice(0, -1) : stem;
    const y = stem.endsWith('y') ? stem.slice(0, -1) : null;
    // -er and -est make agents and comparisons of verbs and adjectives: the stem must inflect like one (cent-er
    // and mast-er are not; teach-er, fast-er, post-er are).
    const verbal = [`${stem}ed`, `${stem}d`, `${stem}ing`, `${bare}ing`, `${stem}est`, `${stem}st`, ...(y ? [`${y}ied`, `${y}iest`] : [])];
    const adjective = [`${stem}ly`, `${stem}ness`, ...(y ? [`${y}ily`, `${y}iness`] : [])];
    const forms =
      suffix === 'er' || suffix === 'est' || suffix === 'ers'
        ? [...verbal, ...adjective]
        : [...verbal, ...adjective, `${stem}s`, `${stem}es`, `${stem}er`, ...(y ? [`${y}ies`] : [])];
    // The form must sound like the stem plus an ending ('daring' is no evidence for 'dar').
    const stemProns = this.dict.lookup(stem);
    return forms.some(
      (f) =>
        f !== word &&
        this.dict.lookup(f).some((fp) => stemProns.some((sp) => sp.phones.length < fp.phones.length && samePhones(sp.phones, fp.phones.slice(0, sp.phones.length)))),
    );
  }

  /** Letter positions where a new syllable starts. */
  private syllableBreaks(key: string, units: readonly AlignedUnit[], pron: Pronunciation): number[] {
    const { phones, stress } = pron;
    const nuclei: Nucleus[] = [];
    for (const u of units) {
      let first = -1;
      let last = -1;
      for (let k = u.from; k < u.to; k++) {
        if (isVowelPhone(phones[k])) {
          if (first < 0) first = k;
          last = k;
        }
      }
      if (first >= 0) nuclei.push({ first, last, unit: u });
    }
    if (nuclei.length < 2) return [];
    const forced = this.morphBreaks(key, phones);

    const isLax = (n: Nucleus) => {
      const v = phones[n.first];
      if (stress[n.first] < 1 || n.first !== n.last) return false;
      if (v === 'AE' || v === 'EH' || v === 'UH' || v === 'AH') return true;
      // IH before r is the vowel of here, he-ro, se-ri-ous: it stays open.
      if (v === 'IH') return phones[n.first + 1] !== 'R';
      // Short o: AA (hot, rob-in) or AO (dog, cof-fee), but not AO before r (sto-ry).
      if (v === 'AA') return n.unit.unit.letters.includes('o');
      return v === 'AO' && n.unit.unit.letters.includes('o') && phones[n.first + 1] !== 'R';
    };

    const phoneBreaks: number[] = [];
    for (let i = 0; i + 1 < nuclei.length; i++) {
      const a = nuclei[i];
      const b = nuclei[i + 1];
      const lo = a.last + 1;
      const hi = b.first;
      let k = -1;
      for (let f = lo; f <= hi; f++) if (forced.has(f)) k = k < 0 ? f : k;
      if (k < 0) {
        k = lo;
        while (!legalOnset(phones.slice(k, hi))) k++;
        // A short stressed vowel closes its syllable: cab-in, rab-bit, lem-on (but ti-ger, o-pen); not with a
        // sound spelled with a vowel letter, which starts the next syllable (spe-cial, mis-sion).
        const onsetUnit = units.find((u) => u.from <= lo && lo < u.to);
        const spelledWithVowel = !!onsetUnit && [...onsetUnit.unit.letters].some((ch) => VOWEL_LETTERS.has(ch));
        if (k === lo && hi > lo && isLax(a) && !spelledWithVowel) k = lo + 1;
      }
      phoneBreaks.push(k);
    }

    const letterBreaks: number[] = [];
    for (const k of phoneBreaks) {
      const ui = units.findIndex((u) => u.to > k && u.to > u.from);
      if (ui < 0) continue;
      const u = units[ui];
      if (u.from < k) {
        // The break falls inside a unit (the x of tax-i): keep the unit whole, in the first syllable.
        letterBreaks.push(u.end);
        continue;
      }
      let pos = u.start;
      // Silent letters between two sounds stay with the sound before, unless that is a consonant and the silent
      // letter is one too (lis-ten, cas-tle; but is-land, love-ly).
      let p = ui - 1;
      while (p >= 0 && units[p].to === units[p].from) p--;
      const prev = p >= 0 ? units[p] : null;
      const prevConsonant = prev !== null && !isVowelPhone(phones[prev.to - 1]);
      for (let s = ui - 1; s > p; s--) {
        const silent = units[s];
        if (prevConsonant && silent.unit.letters !== "'" && [...silent.unit.letters].every(isConsonantLetter)) pos = silent.start;
        else break;
      }
      letterBreaks.push(pos);
    }

    // Doubled consonants split between the syllables (hap-py, bal-loon, run-ning), unless the first part is a
    // whole word before a suffix (fill-ing, tall-er).
    const adjusted = letterBreaks.map((pos) => {
      const before = units.filter((u) => u.end === pos && u.end > u.start).at(-1);
      const after = units.find((u) => u.start === pos);
      const doubledEnd = (u: AlignedUnit | undefined) =>
        !!u && u.end - u.start >= 2 && key[u.end - 1] === key[u.end - 2] && isConsonantLetter(key[u.end - 1]);
      let d: AlignedUnit | undefined;
      if (doubledEnd(before) && after && (VOWEL_LETTERS.has(key[after.start]) || after.unit.kind === 'le')) d = before;
      else if (after && after.end - after.start >= 2 && key[after.start] === key[after.start + 1] && isConsonantLetter(key[after.start])) d = after;
      if (!d) return pos;
      // Words may end in ff, ll, ss, zz (the floss rule), so those can be whole before a suffix: fill-ing,
      // kiss-es, fluff-y (but sil-ly, jel-ly: -y after ll is not a suffix often enough to trust).
      const doubled = key[d.end - 1];
      const rest = key.slice(d.end);
      const floss = doubled === 'f' || doubled === 's' || doubled === 'z' || doubled === 'l';
      if (floss && this.dict.has(key.slice(0, d.end)) && INFLECTIONS.has(rest)) return d.end;
      return d === after ? d.start + 1 : d.end - 1;
    });
    return [...new Set(adjusted)].filter((p) => p > 0 && p < key.length).sort((x, y) => x - y);
  }

  private cues(key: string, units: readonly AlignedUnit[], breaks: readonly number[], heart: boolean): Syllable[] {
    const L = key.length;
    const bounds = [0, ...breaks, L];
    const syllableOf = (pos: number) => {
      let s = 0;
      while (s + 1 < bounds.length - 1 && pos >= bounds[s + 1]) s++;
      return s;
    };
    // Per letter: its cue and the unit it belongs to.
    const cue: (Cue | null)[] = new Array(L).fill(null);
    const group: number[] = new Array(L).fill(-1);
    units.forEach((u, ui) => {
      const letters = u.unit.letters;
      let kind: Cue | null = null;
      if (u.unit.kind === 'digraph' && CUE_DIGRAPHS.has(letters)) kind = 'digraph';
      else if (u.unit.kind === 'team') kind = 'team';
      else if (u.unit.kind === 'r') kind = 'r';
      for (let i = u.start; i < u.end; i++) {
        group[i] = ui;
        cue[i] = kind;
      }
      for (const si of u.unit.silent) {
        const i = u.start + si;
        const rest = key.slice(i + 1);
        const finalE =
          letters === 'e' && (rest === '' || rest === 's' || rest === 'd' || rest === "'s" || breaks.includes(i + 1));
        cue[i] = finalE ? 'silent-e' : 'silent';
        group[i] = ui * 1000 + si + 1;
      }
      // A unit split between syllables (the rr of hur-ry): the letters in the later syllable carry no cue.
      const first = syllableOf(u.start);
      for (let i = u.start; i < u.end; i++) if (syllableOf(i) !== first && kind) cue[i] = null;
    });
    if (heart) cue.fill(null);

    const syllables: Syllable[] = [];
    for (let s = 0; s + 1 < bounds.length; s++) {
      const start = bounds[s];
      const end = bounds[s + 1];
      const segments: Segment[] = [];
      for (let i = start; i < end; i++) {
        const last = segments.at(-1);
        if (last && last.cue === cue[i] && (cue[i] === null || group[i] === group[i - 1])) last.end = i + 1;
        else segments.push({ start: i, end: i + 1, cue: cue[i] });
      }
      const le = units.find((u) => u.unit.kind === 'le' && u.start >= start && u.end <= end);
      const cle = !heart && s === bounds.length - 2 && s > 0 && !!le && le.start > 0 && isConsonantLetter(key[le.start - 1]);
      syllables.push({ start, end, cle, segments });
    }
    return syllables;
  }
}

/**
 * A compact text form of an analysis, for tests and docs: syllables joined by '-', [digraph], {vowel team},
 * <r-controlled>, (silent letters), ^ before a consonant+le syllable, * before a heart word, ? before an unknown one.
 */
export function notation(analysis: WordAnalysis | null, word?: string): string {
  if (!analysis) return `?${word ?? ''}`;
  const chars = [...analysis.word];
  const open: Record<Cue, [string, string]> = {
    digraph: ['[', ']'],
    team: ['{', '}'],
    r: ['<', '>'],
    silent: ['(', ')'],
    'silent-e': ['(', ')'],
  };
  const body = analysis.syllables
    .map((s) => {
      const text = s.segments
        .map((seg) => {
          const letters = chars.slice(seg.start, seg.end).join('');
          return seg.cue ? `${open[seg.cue][0]}${letters}${open[seg.cue][1]}` : letters;
        })
        .join('');
      return (s.cle ? '^' : '') + text;
    })
    .join('-');
  return (analysis.heart ? '*' : '') + body;
}
