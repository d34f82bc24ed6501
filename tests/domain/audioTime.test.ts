import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAudioLength, formatClock } from '../../src/domain/audioTime';

describe('total audio length (SPEC §9: "Xh Ym" or "Ym")', () => {
  it('shows minutes under an hour', () => {
    expect(formatAudioLength(0)).toBe('0m');
    expect(formatAudioLength(5)).toBe('1m');
    expect(formatAudioLength(60)).toBe('1m');
    expect(formatAudioLength(89)).toBe('1m');
    expect(formatAudioLength(90)).toBe('2m');
    expect(formatAudioLength(59 * 60)).toBe('59m');
  });

  it('shows hours and minutes from an hour', () => {
    expect(formatAudioLength(3600)).toBe('1h 0m');
    expect(formatAudioLength(3600 + 25 * 60)).toBe('1h 25m');
    expect(formatAudioLength(2 * 3600 + 5 * 60 + 10)).toBe('2h 5m');
    expect(formatAudioLength(59 * 60 + 45)).toBe('1h 0m');
  });

  it('treats missing or negative lengths as no audio', () => {
    expect(formatAudioLength(-10)).toBe('0m');
    expect(formatAudioLength(Number.NaN)).toBe('0m');
    expect(formatAudioLength(Number.POSITIVE_INFINITY)).toBe('0m');
  });

  it('always has the shape "Xh Ym" or "Ym" and rounds to the nearest minute', () => {
    fc.assert(
      fc.property(fc.integer({ min: 30, max: 100 * 3600 }), (seconds) => {
        const text = formatAudioLength(seconds);
        const m = /^(?:(\d+)h )?(\d+)m$/.exec(text);
        expect(m).not.toBeNull();
        const hours = Number(m![1] ?? 0);
        const minutes = Number(m![2]);
        expect(minutes).toBeLessThan(60);
        if (m![1] !== undefined) expect(hours).toBeGreaterThan(0);
        expect(hours * 60 + minutes).toBe(Math.round(seconds / 60));
      }),
    );
  });
});

describe('clock (SPEC §9: mm:ss)', () => {
  it('pads minutes and seconds to two digits', () => {
    expect(formatClock(0)).toBe('00:00');
    expect(formatClock(7)).toBe('00:07');
    expect(formatClock(65)).toBe('01:05');
    expect(formatClock(599.99)).toBe('09:59');
    expect(formatClock(3600)).toBe('60:00');
    expect(formatClock(75 * 60 + 3)).toBe('75:03');
  });

  it('shows 00:00 for missing or negative times', () => {
    expect(formatClock(-1)).toBe('00:00');
    expect(formatClock(Number.NaN)).toBe('00:00');
  });

  it('round-trips whole seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 * 60 + 59 }), (seconds) => {
        const [mm, ss] = formatClock(seconds).split(':').map(Number);
        expect(mm * 60 + ss).toBe(seconds);
        expect(formatClock(seconds)).toMatch(/^\d{2}:[0-5]\d$/);
      }),
    );
  });
});
