import { describe, expect, it } from 'vitest';
import { matchesSearch, words } from '../../src/domain/search';

describe('catalog search (SPEC §5)', () => {
  const title = "The Lighthouse Keeper's Apprentice";
  const author = 'Marguerite Osei-Lind';

  it('matches when every typed word starts some word of the title or author', () => {
    expect(matchesSearch('light', title, author)).toBe(true);
    expect(matchesSearch('keep appr', title, author)).toBe(true);
    expect(matchesSearch('marg light', title, author)).toBe(true);
    expect(matchesSearch('lind', title, author)).toBe(true);
  });

  it('is case-insensitive', () => {
    expect(matchesSearch('LIGHTHOUSE', title, author)).toBe(true);
    expect(matchesSearch('mArGuErItE', title, author)).toBe(true);
  });

  it('does not match the middle of a word', () => {
    expect(matchesSearch('house', title, author)).toBe(false);
    expect(matchesSearch('prentice', title, author)).toBe(false);
  });

  it('needs every word to match', () => {
    expect(matchesSearch('light dragon', title, author)).toBe(false);
  });

  it('matches everything for an empty or blank query', () => {
    expect(matchesSearch('', title, author)).toBe(true);
    expect(matchesSearch('   ', title, author)).toBe(true);
  });

  it('ignores punctuation and accents', () => {
    expect(matchesSearch('keeper’s', title, author)).toBe(true);
    expect(matchesSearch('abeja', 'Cómo las Abejas hacen miel', 'A')).toBe(true);
    expect(matchesSearch('como', 'Cómo las Abejas hacen miel', 'A')).toBe(true);
  });

  it('splits words in any script', () => {
    expect(words('Жар-птица и Волк')).toEqual(['жар', 'птица', 'и', 'волк']);
    expect(matchesSearch('النحل', 'كيف يصنع النحل العسل', 'x')).toBe(true);
  });
});
