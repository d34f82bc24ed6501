/** The navbar title's tooltip (SPEC §2 Shared layout: title by author). */
import { describe, expect, it } from 'vitest';
import { titleByAuthor } from '../../src/domain/navbarTitle';

describe('titleByAuthor', () => {
  it("reads '{title} by {author}'", () => {
    expect(titleByAuthor({ title: 'How Bees Make Honey', author: 'Mara Quill' })).toBe('How Bees Make Honey by Mara Quill');
    expect(titleByAuthor({ title: '  Pip  ', author: ' Ann Lee ' })).toBe('Pip by Ann Lee');
  });
  it('is the title alone without an author, and nothing without a title', () => {
    expect(titleByAuthor({ title: 'Pip', author: ' ' })).toBe('Pip');
    expect(titleByAuthor({ title: ' ', author: 'Ann' })).toBeNull();
    expect(titleByAuthor(null)).toBeNull();
  });
});
