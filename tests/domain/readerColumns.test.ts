import { describe, expect, it } from 'vitest';
import { defaultSecondEdition, levelsForLanguage } from '../../src/domain/readerColumns';
import type { Level } from '../../src/domain/levels';

const edition = (code: string, level: Level) => ({ language: { code }, level });
const editions = [edition('en', 'ORIGINAL'), edition('en', 'GOLD'), edition('en', 'SILVER'), edition('es', 'ORIGINAL'), edition('ar', 'ORIGINAL')];
const defaultReader = { left: { language: 'en', level: 'ORIGINAL' as Level }, right: { language: 'es', level: 'ORIGINAL' as Level } };

describe('the second column (SPEC §2 Two-column mode)', () => {
  it('opens with the default right reader', () => {
    expect(defaultSecondEdition(defaultReader, editions, { language: 'en', level: 'GOLD' })).toEqual({ language: 'es', level: 'ORIGINAL' });
    expect(defaultSecondEdition(defaultReader, editions, null)).toEqual({ language: 'es', level: 'ORIGINAL' });
  });

  it('never repeats the first column: then the default left reader', () => {
    expect(defaultSecondEdition(defaultReader, editions, { language: 'es', level: 'ORIGINAL' })).toEqual({ language: 'en', level: 'ORIGINAL' });
  });

  it('when both defaults are the first column, another edition', () => {
    const same = { left: defaultReader.left, right: defaultReader.left };
    expect(defaultSecondEdition(same, editions, { language: 'en', level: 'ORIGINAL' })).toEqual({ language: 'en', level: 'GOLD' });
    expect(defaultSecondEdition(same, [edition('en', 'ORIGINAL')], { language: 'en', level: 'ORIGINAL' })).toEqual(defaultReader.left);
  });
});

describe('the level dropdown', () => {
  it("offers the language's levels, easiest first", () => {
    expect(levelsForLanguage(editions, ['GOLD', 'ORIGINAL', 'SILVER'], 'en')).toEqual(['SILVER', 'GOLD', 'ORIGINAL']);
    expect(levelsForLanguage(editions, ['GOLD', 'ORIGINAL', 'SILVER'], 'es')).toEqual(['ORIGINAL']);
  });

  it("offers every level of the title for a language without editions", () => {
    expect(levelsForLanguage(editions, ['ORIGINAL', 'GOLD', 'GOLD'], 'ru')).toEqual(['GOLD', 'ORIGINAL']);
  });
});
