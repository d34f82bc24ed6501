/** The text rule for what people type (src/domain/textRules.ts): characters, lengths, and the walk over a parsed body. */
import { describe, expect, it } from 'vitest';
import {
  MAX_ANY_LENGTH,
  MAX_LISTED_PROBLEMS,
  MAX_NAME_LENGTH,
  MAX_NESTING_DEPTH,
  TEXT_RULES,
  hasNulOrLoneSurrogate,
  textProblem,
  textProblems,
  textSchema,
} from '../../src/domain/textRules';

describe('characters', () => {
  it('finds U+0000 and lone surrogates, not surrogate pairs', () => {
    expect(hasNulOrLoneSurrogate('a\u0000b')).toBe(true);
    expect(hasNulOrLoneSurrogate('\uD800')).toBe(true);
    expect(hasNulOrLoneSurrogate('x\uDC00')).toBe(true);
    expect(hasNulOrLoneSurrogate('\uDC00\uD800')).toBe(true);
    expect(hasNulOrLoneSurrogate('🦉 owl')).toBe(false);
    expect(hasNulOrLoneSurrogate('Zoë 李')).toBe(false);
  });

  it('refuses control characters in single-line text; free text keeps tab and line breaks', () => {
    for (const control of ['\u0001', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f']) {
      expect(textProblem(`a${control}b`, TEXT_RULES.name), JSON.stringify(control)).toBe('must not contain control characters');
    }
    expect(textProblem('one\ttwo\r\nthree', TEXT_RULES.freeText)).toBeNull();
    expect(textProblem('bell\u0007', TEXT_RULES.freeText)).toBe('must not contain control characters');
    expect(textProblem('bell\u0007', TEXT_RULES.any)).toBeNull();
    expect(textProblem('nul\u0000', TEXT_RULES.any)).toBe('must not contain U+0000 or unpaired surrogates');
  });

  it('counts length in characters: 100 emoji are a name, 101 are not', () => {
    expect(textProblem('🦉'.repeat(MAX_NAME_LENGTH), TEXT_RULES.name)).toBeNull();
    expect(textProblem('🦉'.repeat(MAX_NAME_LENGTH + 1), TEXT_RULES.name)).toBe(`must be at most ${MAX_NAME_LENGTH} characters`);
    expect(textProblem('x'.repeat(MAX_ANY_LENGTH + 1), TEXT_RULES.any)).toBe(`must be at most ${MAX_ANY_LENGTH} characters`);
  });

  it('makes a zod schema that names its field', () => {
    const schema = textSchema('email', 'email');
    expect(schema.safeParse('ann@example.org').success).toBe(true);
    const failed = schema.safeParse('ann\u0000@example.org');
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.message).toBe('email must not contain U+0000 or unpaired surrogates');
  });
});

describe('the walk over a body', () => {
  const kinds = (key: string) => (({ name: 'name', email: 'email', role: 'identifier' }) as const)[key as 'name'];

  it('names each problem by its path, with the rule of its key', () => {
    expect(
      textProblems({ name: 'Ann\nLee', data: { name: 'n'.repeat(101), note: 'ok\n' }, role: ['admin', 'x\u0085'], 'bad\u0000key': 1 }, kinds),
    ).toEqual([
      'name must not contain control characters',
      `data.name must be at most ${MAX_NAME_LENGTH} characters`,
      'role[1] must not contain control characters',
      'A key in body must not contain U+0000 or unpaired surrogates',
    ]);
  });

  it('asks text of a field with a kind', () => {
    expect(textProblems({ name: 12345, email: { $ne: '' }, role: null }, kinds)).toEqual(['name must be text', 'email must be text']);
  });

  it('stops at the nesting limit without exhausting the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(textProblems(deep)).toEqual([`body${'[0]'.repeat(MAX_NESTING_DEPTH)} is nested more than ${MAX_NESTING_DEPTH} levels deep`]);
    let fine: unknown = 'leaf';
    for (let i = 0; i < MAX_NESTING_DEPTH; i++) fine = { a: fine };
    expect(textProblems(fine)).toEqual([]);
  });

  it(`lists at most ${MAX_LISTED_PROBLEMS} problems`, () => {
    expect(textProblems(Array.from({ length: 500 }, () => '\u0000'))).toHaveLength(MAX_LISTED_PROBLEMS);
  });
});
