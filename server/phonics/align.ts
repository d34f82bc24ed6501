/**
 * Grapheme–phoneme alignment: cut a word into spelling units whose phonemes, in order, are exactly the
 * dictionary pronunciation, choosing the cut of lowest total cost (dynamic programming over letters × phonemes).
 */
import { isVowelPhone, UNITS_BY_FIRST, type SpellingUnit } from './units';

export interface AlignedUnit {
  unit: SpellingUnit;
  /** Letter range [start, end) in the word. */
  start: number;
  end: number;
  /** Phoneme range [from, to) in the pronunciation. */
  from: number;
  to: number;
}

export interface Alignment {
  units: AlignedUnit[];
  cost: number;
}

/** Endings after which an r-controlled vowel keeps its r although a vowel follows (sharing, cleared, fairer). */
const R_ENDINGS = new Set(['ing', 'ings', 'ed', 'er', 'ers', 'est', 'es']);

function allowedAt(unit: SpellingUnit, word: string, start: number): boolean {
  const end = start + unit.letters.length;
  switch (unit.at) {
    case 'any':
      return true;
    case 'start':
      return start === 0;
    case 'end':
      return end === word.length;
    case 'notStart':
      return start > 0;
    case 'endOrS': {
      const rest = word.slice(end);
      return rest === '' || rest === 's' || rest === 'd' || rest === "'s";
    }
  }
}

/**
 * Align `word` (lower case a–z and apostrophes) with `phones` (no stress digits). Null when no cut of the word
 * into known units spells the pronunciation.
 */
export function align(word: string, phones: readonly string[]): Alignment | null {
  const L = word.length;
  const P = phones.length;
  const width = P + 1;
  const cost = new Float64Array((L + 1) * width).fill(Infinity);
  const back: (AlignedUnit | null)[] = new Array((L + 1) * width).fill(null);
  cost[0] = 0;
  for (let i = 0; i < L; i++) {
    const candidates = UNITS_BY_FIRST.get(word[i]);
    if (!candidates) continue;
    for (let j = 0; j <= P; j++) {
      const here = cost[i * width + j];
      if (here === Infinity) continue;
      for (const unit of candidates) {
        const n = unit.letters.length;
        const m = unit.phones.length;
        if (i + n > L || j + m > P) continue;
        if (!word.startsWith(unit.letters, i)) continue;
        let ok = true;
        for (let k = 0; k < m; k++) {
          if (phones[j + k] !== unit.phones[k]) {
            ok = false;
            break;
          }
        }
        if (!ok || !allowedAt(unit, word, i)) continue;
        // An r-controlled vowel ends its syllable: the r may not begin the next vowel (ve-ry, sto-ry, car-rot),
        // unless that vowel starts an ending (car-ing, clear-er).
        if (unit.kind === 'r' && unit.phones[m - 1] === 'R' && j + m < P && isVowelPhone(phones[j + m]) && !R_ENDINGS.has(word.slice(i + n))) {
          continue;
        }
        const next = (i + n) * width + (j + m);
        const total = here + unit.cost;
        if (total < cost[next] - 1e-9) {
          cost[next] = total;
          back[next] = { unit, start: i, end: i + n, from: j, to: j + m };
        }
      }
    }
  }
  const final = L * width + P;
  if (cost[final] === Infinity) return null;
  const units: AlignedUnit[] = [];
  let at = final;
  while (at !== 0) {
    const step = back[at]!;
    units.push(step);
    at = step.start * width + step.from;
  }
  units.reverse();
  return { units, cost: cost[final] };
}
