import { describe, expect, it } from 'vitest';
import { playingEdition } from '../../src/domain/playingEdition';

describe('the edition that plays', () => {
  it("is the second column's when it is chosen and shown", () => {
    expect(playingEdition('secondary', true)).toBe('secondary');
  });
  it("is the first column's when the second is chosen but not shown (a narrow screen, a class code)", () => {
    expect(playingEdition('secondary', false)).toBe('primary');
  });
  it("is the first column's when the first is chosen or nothing is", () => {
    expect(playingEdition('primary', true)).toBe('primary');
    expect(playingEdition(undefined, true)).toBe('primary');
    expect(playingEdition(null, false)).toBe('primary');
  });
});
