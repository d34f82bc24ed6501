/** The accuracy gate of decode mode: at least 95% of the hand-marked early-reader words exactly right. */
import { beforeAll, describe, expect, it } from 'vitest';
import { notation, wordAnalyzer, type WordAnalyzer } from '../../server/phonics';
import { GOLD_WORDS, HELD_OUT_WORDS, type GoldWord } from './goldWords';

/** The gate. */
const REQUIRED_ACCURACY = 0.95;

let analyzer: WordAnalyzer;
beforeAll(async () => {
  analyzer = await wordAnalyzer();
});

const syllablesOnly = (s: string) => s.replace(/[[\]{}<>()^*]/g, '');

function score(words: readonly GoldWord[]) {
  const misses: string[] = [];
  const byGroup = new Map<string, { right: number; total: number }>();
  let syllablesRight = 0;
  for (const { word, expected, group } of words) {
    const got = notation(analyzer.analyze(word), word);
    const g = byGroup.get(group) ?? { right: 0, total: 0 };
    g.total++;
    if (got === expected) g.right++;
    else misses.push(`${word}: expected ${expected}, got ${got}`);
    byGroup.set(group, g);
    if (syllablesOnly(got) === syllablesOnly(expected)) syllablesRight++;
  }
  const right = words.length - misses.length;
  return { right, total: words.length, accuracy: right / words.length, syllablesRight, byGroup, misses };
}

function report(name: string, s: ReturnType<typeof score>): string {
  const pct = (n: number) => `${((n / s.total) * 100).toFixed(1)}%`;
  return [
    `${name}: ${s.right}/${s.total} = ${pct(s.right)} exact (syllables and every cue; required ${REQUIRED_ACCURACY * 100}%)`,
    `  syllable breaks alone: ${s.syllablesRight}/${s.total} = ${pct(s.syllablesRight)}`,
    ...[...s.byGroup].map(([group, g]) => `  ${group}: ${g.right}/${g.total}`),
    ...(s.misses.length ? ['  misses:', ...s.misses.map((m) => `    ${m}`)] : []),
  ].join('\n');
}

describe('decode accuracy on hand-marked words', () => {
  it('has at least 150 distinct words', () => {
    const all = [...GOLD_WORDS, ...HELD_OUT_WORDS].map((w) => w.word);
    expect(new Set(all).size).toBe(all.length);
    expect(GOLD_WORDS.length).toBeGreaterThanOrEqual(150);
  });

  it(`marks at least ${REQUIRED_ACCURACY * 100}% of the gold words exactly`, () => {
    const gold = score(GOLD_WORDS);
    const heldOut = score(HELD_OUT_WORDS);
    const all = score([...GOLD_WORDS, ...HELD_OUT_WORDS]);
    console.log([report('Decode accuracy, gold set', gold), report('Decode accuracy, held-out set', heldOut), report('Decode accuracy, all', all)].join('\n'));
    expect(gold.accuracy).toBeGreaterThanOrEqual(REQUIRED_ACCURACY);
    expect(heldOut.accuracy).toBeGreaterThanOrEqual(REQUIRED_ACCURACY);
  });
});
