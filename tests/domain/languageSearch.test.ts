import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupLanguages, matchesLanguageSearch } from '../../src/domain/languageSearch';
import { LANGUAGES } from '../../src/domain/languages';

describe('language search (SPEC §5 Language search)', () => {
  const arabic = { code: 'ar', name: 'Arabic' };
  const spanish = { code: 'es', name: 'Spanish' };

  it('matches the name anywhere, case-insensitively', () => {
    expect(matchesLanguageSearch(arabic, 'arab')).toBe(true);
    expect(matchesLanguageSearch(arabic, 'ARABIC')).toBe(true);
    expect(matchesLanguageSearch(arabic, 'bic')).toBe(true);
    expect(matchesLanguageSearch(spanish, 'SpAn')).toBe(true);
  });

  it('matches the code from its start, case-insensitively', () => {
    expect(matchesLanguageSearch(spanish, 'es')).toBe(true);
    expect(matchesLanguageSearch(spanish, 'ES')).toBe(true);
    expect(matchesLanguageSearch({ code: 'fil', name: 'Filipino' }, 'fi')).toBe(true);
  });

  it('does not match unrelated text', () => {
    expect(matchesLanguageSearch(arabic, 'span')).toBe(false);
    expect(matchesLanguageSearch(spanish, 'zh')).toBe(false);
    expect(matchesLanguageSearch(arabic, 'arabics')).toBe(false);
  });

  it('ignores surrounding spaces, and an empty query matches everything', () => {
    expect(matchesLanguageSearch(arabic, '  arabic ')).toBe(true);
    for (const l of LANGUAGES) expect(matchesLanguageSearch(l, '   ')).toBe(true);
  });

  it('every language matches its own name and code in any case', () => {
    fc.assert(
      fc.property(fc.constantFrom(...LANGUAGES), fc.boolean(), (l, upper) => {
        const change = (s: string) => (upper ? s.toUpperCase() : s.toLowerCase());
        expect(matchesLanguageSearch(l, change(l.name))).toBe(true);
        expect(matchesLanguageSearch(l, change(l.code))).toBe(true);
      }),
    );
  });

  it('groups recently used (only languages the title offers, most recent first) and all languages', () => {
    const available = [
      { code: 'en', name: 'English' },
      { code: 'es', name: 'Spanish' },
      { code: 'ar', name: 'Arabic' },
    ];
    const groups = groupLanguages(available, ['ar', 'ru', 'en', 'ar']);
    expect(groups.recent.map((l) => l.code)).toEqual(['ar', 'en']);
    expect(groups.all.map((l) => l.code)).toEqual(['en', 'es', 'ar']);
  });

  it('filters both groups by the query', () => {
    const available = [
      { code: 'en', name: 'English' },
      { code: 'es', name: 'Spanish' },
      { code: 'ar', name: 'Arabic' },
    ];
    const groups = groupLanguages(available, ['ar', 'en'], 'E');
    expect(groups.recent.map((l) => l.code)).toEqual(['en']);
    expect(groups.all.map((l) => l.code)).toEqual(['en', 'es']);
    expect(groupLanguages(available, ['ar'], 'zz')).toEqual({ recent: [], all: [] });
  });
});
