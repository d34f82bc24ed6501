import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  keepDigits,
  parseJumpTarget,
  passageNumberMax,
  percentComplete,
  validatePassageNumber,
} from '../../src/domain/passageNumber';

describe('passage number on the select page (SPEC §5)', () => {
  it('empty gives "Please enter a passage number"', () => {
    expect(validatePassageNumber('', 8)).toEqual({ ok: false, message: 'Please enter a passage number' });
    expect(validatePassageNumber('   ', 8)).toEqual({ ok: false, message: 'Please enter a passage number' });
  });

  it('not a number gives "Please enter a valid number"', () => {
    for (const text of ['abc', '3a', 'four', '1.5', '1e1', '--2', '0x10', '½']) {
      expect(validatePassageNumber(text, 8)).toEqual({ ok: false, message: 'Please enter a valid number' });
    }
  });

  it('below 1 or above the passage count gives "Please enter a number between 1 and {max}"', () => {
    expect(validatePassageNumber('0', 8)).toEqual({ ok: false, message: 'Please enter a number between 1 and 8' });
    expect(validatePassageNumber('-3', 8)).toEqual({ ok: false, message: 'Please enter a number between 1 and 8' });
    expect(validatePassageNumber('9', 8)).toEqual({ ok: false, message: 'Please enter a number between 1 and 8' });
    expect(validatePassageNumber('100000000000000000000', 8)).toEqual({ ok: false, message: 'Please enter a number between 1 and 8' });
  });

  it('the maximum is 1 when the edition is unknown', () => {
    expect(passageNumberMax(undefined)).toBe(1);
    expect(passageNumberMax(null)).toBe(1);
    expect(passageNumberMax(0)).toBe(1);
    expect(validatePassageNumber('1', null)).toEqual({ ok: true, position: 1 });
    expect(validatePassageNumber('2', undefined)).toEqual({ ok: false, message: 'Please enter a number between 1 and 1' });
  });

  it('accepts whole numbers within 1..max, ignoring surrounding spaces and leading zeros', () => {
    expect(validatePassageNumber('1', 8)).toEqual({ ok: true, position: 1 });
    expect(validatePassageNumber(' 8 ', 8)).toEqual({ ok: true, position: 8 });
    expect(validatePassageNumber('05', 8)).toEqual({ ok: true, position: 5 });
    expect(validatePassageNumber('+3', 8)).toEqual({ ok: true, position: 3 });
  });

  it('every integer is valid exactly when it lies in 1..max', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 500 }), (n, max) => {
        const result = validatePassageNumber(String(n), max);
        if (n >= 1 && n <= max) expect(result).toEqual({ ok: true, position: n });
        else expect(result).toEqual({ ok: false, message: `Please enter a number between 1 and ${max}` });
      }),
    );
  });

  it('text with a letter is never a valid number', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('a', 'Z', 'x', 'é'), fc.string(), (before, letter, after) => {
        const result = validatePassageNumber(`${before}${letter}${after}`, 8);
        expect(result).toEqual({ ok: false, message: 'Please enter a valid number' });
      }),
    );
  });
});

describe('jump input (SPEC §5: positive integers only)', () => {
  it('keeps only digits of typed text', () => {
    expect(keepDigits('12')).toBe('12');
    expect(keepDigits('-3')).toBe('3');
    expect(keepDigits('1.5')).toBe('15');
    expect(keepDigits('a4b')).toBe('4');
    expect(keepDigits('')).toBe('');
  });

  it('accepts only numbers greater than 0', () => {
    expect(parseJumpTarget('', 8)).toBeNull();
    expect(parseJumpTarget('0', 8)).toBeNull();
    expect(parseJumpTarget('000', 8)).toBeNull();
    expect(parseJumpTarget('-2', 8)).toBeNull();
    expect(parseJumpTarget('2.5', 8)).toBeNull();
    expect(parseJumpTarget('abc', 8)).toBeNull();
    expect(parseJumpTarget('3', 8)).toBe(3);
    expect(parseJumpTarget(' 7 ', 8)).toBe(7);
  });

  it('keeps the target within the passage count', () => {
    expect(parseJumpTarget('12', 8)).toBe(8);
    expect(parseJumpTarget('99999999999999999999', 8)).toBe(8);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 500 }), (n, max) => {
        const target = parseJumpTarget(String(n), max);
        expect(target).toBe(Math.min(n, max));
      }),
    );
  });
});

describe('percent complete (SPEC §9: round(position / total passages * 100))', () => {
  it('rounds to a whole percent', () => {
    expect(percentComplete(1, 8)).toBe(13);
    expect(percentComplete(3, 8)).toBe(38);
    expect(percentComplete(4, 8)).toBe(50);
    expect(percentComplete(8, 8)).toBe(100);
    expect(percentComplete(1, 3)).toBe(33);
    expect(percentComplete(2, 3)).toBe(67);
  });

  it('is 0 without passages and never above 100', () => {
    expect(percentComplete(1, 0)).toBe(0);
    expect(percentComplete(0, 8)).toBe(0);
    expect(percentComplete(12, 8)).toBe(100);
  });
});
