/** Computed readability: the formulas, the counts they rest on, and the real library's levels in order. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FORMULAS,
  editionReadability,
  readabilityFromStats,
  readabilityOfTexts,
  splitSentences,
  textStats,
} from '../../server/readability';
import { englishSyllables, portugueseSyllables, russianSyllables, spanishSyllables } from '../../server/readability/syllables';
import { readLibrary } from '../../server/content/read';
import { LEVEL_ORDER, type Level } from '../../src/domain/levels';

describe('the formulas', () => {
  // 100 words, 5 sentences (ASL 20), 150 syllables (ASW 1.5)
  const stats = { words: 100, sentences: 5, syllables: 150 };

  it('Flesch–Kincaid grade level for English: 0.39·ASL + 11.8·ASW − 15.59', () => {
    expect(readabilityFromStats('en', stats)).toEqual({ grade: 9.9, formula: FORMULAS.en }); // 7.8 + 17.7 − 15.59
  });

  it('Fernández-Huerta for Spanish: 206.84 − 0.60·(syllables per 100 words) − 1.02·(words per sentence)', () => {
    expect(readabilityFromStats('es', stats)).toEqual({ grade: 96.4, formula: FORMULAS.es }); // 206.84 − 90 − 20.4
  });

  it('Oborneva for Russian: 206.835 − 1.3·ASL − 60.1·ASW', () => {
    expect(readabilityFromStats('ru', stats)).toEqual({ grade: 90.7, formula: FORMULAS.ru }); // 206.835 − 26 − 90.15
  });

  it('Martins et al. for Portuguese: 248.835 − 1.015·ASL − 84.6·ASW', () => {
    expect(readabilityFromStats('pt', stats)).toEqual({ grade: 101.6, formula: FORMULAS.pt }); // 248.835 − 20.3 − 126.9
  });

  it('gives nothing for other languages or for no text', () => {
    for (const language of ['ar', 'zh', 'vi', 'bn', 'fil', 'ur', 'ha']) expect(readabilityOfTexts(language, ['Some words here.'])).toBeNull();
    expect(readabilityOfTexts('en', [''])).toBeNull();
  });

  it('reads an edition from its passages’ HTML', () => {
    const r = editionReadability('en', ['<p>The cat sat on the mat.</p><p>It was a big, fat cat!</p>']);
    // 12 words, 2 sentences, 12 syllables: 0.39·6 + 11.8·1 − 15.59 = −1.45
    expect(r).toEqual({ grade: -1.4, formula: FORMULAS.en });
  });
});

describe('counting', () => {
  it('splits sentences at . ! ? … with closing quotes, not at abbreviations', () => {
    expect(splitSentences('“I am lost.” He cried. Mr. Brack came! Did he? Yes… He did')).toEqual([
      '“I am lost.”',
      'He cried.',
      'Mr. Brack came!',
      'Did he?',
      'Yes…',
      'He did',
    ]);
    expect(splitSentences('¿Dónde está? ¡Aquí!')).toEqual(['¿Dónde está?', '¡Aquí!']);
  });

  it('counts words and sentences per paragraph', () => {
    expect(textStats(['One two three.\nFour five', 'Six-seven don’t.'], () => 1)).toEqual({ sentences: 3, words: 7, syllables: 8 });
  });

  it('counts syllables in each language', () => {
    expect(['cat', 'table', 'elephant', 'beautiful'].map(englishSyllables)).toEqual([1, 2, 3, 3]);
    expect(['molino', 'ciudad', 'león', 'día', 'guerra', 'que', 'hoy', 'cielo'].map(spanishSyllables)).toEqual([3, 2, 2, 2, 2, 1, 1, 2]);
    expect(['casa', 'pão', 'dia', 'noite', 'quero', 'coração', 'peixe'].map(portugueseSyllables)).toEqual([2, 1, 2, 2, 2, 3, 2]);
    expect(['молоко', 'дом', 'яблоко', 'чай'].map(russianSyllables)).toEqual([3, 1, 3, 1]);
  });
});

describe('the library', () => {
  const library = readLibrary(path.resolve(import.meta.dirname, '../../content'));

  it('reads SILVER < GOLD < ORIGINAL for every English title', () => {
    expect(library.problems).toEqual([]);
    const rows: string[] = [];
    let checked = 0;
    for (const pub of library.publications) {
      const grades = new Map<Level, number>();
      for (const edition of [...pub.editions, ...pub.sources]) {
        const r = editionReadability(
          edition.language,
          edition.passages.map((p) => p.html),
        );
        const source = pub.sources.includes(edition) ? ' (source)' : '';
        rows.push(`${pub.slug.padEnd(36)} ${edition.language}  ${(edition.level + source).padEnd(18)} ${r ? `${r.grade.toFixed(1).padStart(6)}  ${r.formula}` : '   N/A'}`);
        if (edition.language === 'en' && r) grades.set(edition.level, r.grade);
      }
      const present = LEVEL_ORDER.filter((l) => grades.has(l)).map((l) => grades.get(l)!);
      for (let i = 1; i < present.length; i++) {
        expect(present[i], `${pub.slug}: ${LEVEL_ORDER.filter((l) => grades.has(l)).join(' < ')}`).toBeGreaterThan(present[i - 1]);
        checked++;
      }
    }
    console.log(['Computed readability of the library:', ...rows].join('\n'));
    expect(checked).toBeGreaterThanOrEqual(library.publications.length);
  });
});

describe('the Reading Levels column', () => {
  it('labels the figure by its scale and shows N/A without one', async () => {
    const { readabilityCell } = await import('../../src/ui/screens/publication/ReadingLevelsPanel');
    expect(readabilityCell({ readabilityGrade: 3.8, readabilityFormula: FORMULAS.en })).toEqual({ value: 'Grade 3.8', formula: FORMULAS.en });
    expect(readabilityCell({ readabilityGrade: -1.2, readabilityFormula: FORMULAS.en }).value).toBe('Below grade 1');
    expect(readabilityCell({ readabilityGrade: 67, readabilityFormula: FORMULAS.es })).toEqual({ value: 'Ease 67.0', formula: FORMULAS.es });
    expect(readabilityCell({ readabilityGrade: null, readabilityFormula: null })).toEqual({ value: 'N/A', formula: null });
    expect(readabilityCell(undefined).value).toBe('N/A');
  });
});
