import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markIndexAt, markWordSpans, sentenceSpans, spanAt } from '../../src/domain/speechMarks';

describe('the word being spoken (binary search over speech marks)', () => {
  const marks = [
    { offset: 0, time: 50 },
    { offset: 4, time: 300 },
    { offset: 9, time: 620 },
  ];
  it('is the last mark at or before the time', () => {
    expect(markIndexAt(marks, 0)).toBe(-1);
    expect(markIndexAt(marks, 49.9)).toBe(-1);
    expect(markIndexAt(marks, 50)).toBe(0);
    expect(markIndexAt(marks, 299)).toBe(0);
    expect(markIndexAt(marks, 300)).toBe(1);
    expect(markIndexAt(marks, 619.99)).toBe(1);
    expect(markIndexAt(marks, 620)).toBe(2);
    expect(markIndexAt(marks, 1e9)).toBe(2);
    expect(markIndexAt([], 100)).toBe(-1);
    expect(markIndexAt(marks, Number.NaN)).toBe(-1);
  });

  it('agrees with a linear scan on any rising marks', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 100000 }), { maxLength: 200 }), fc.integer({ min: -10, max: 110000 }), (times, t) => {
        const sorted = [...times].sort((a, b) => a - b).map((time, i) => ({ offset: i, time }));
        let expected = -1;
        sorted.forEach((m, i) => {
          if (m.time <= t) expected = i;
        });
        expect(markIndexAt(sorted, t)).toBe(expected);
      }),
    );
  });
});

describe('word and sentence spans in the plain text', () => {
  const text = 'The bees hum. They make honey!\nMy friend’s hive is old.';
  const offsets = [0, 4, 9, 14, 19, 24, 31, 34, 43, 48, 51];
  const marks = offsets.map((offset, i) => ({ offset, time: i * 100 }));

  it('each mark covers its word', () => {
    const words = markWordSpans(text, marks).map((s) => text.slice(s.start, s.end));
    expect(words).toEqual(['The', 'bees', 'hum', 'They', 'make', 'honey', 'My', 'friend’s', 'hive', 'is', 'old']);
  });

  it('covers right-to-left text the same way (offsets are logical)', () => {
    const ar = 'تصطاد البوم ليلًا.';
    const words = markWordSpans(ar, [0, 6, 12].map((offset, i) => ({ offset, time: i })), 'ar').map((s) => ar.slice(s.start, s.end));
    expect(words).toEqual(['تصطاد', 'البوم', 'ليلًا']);
  });

  it('clamps marks outside the text to empty spans', () => {
    expect(markWordSpans('Hi', [{ offset: 10, time: 0 }])).toEqual([{ start: 2, end: 2 }]);
  });

  it('splits sentences, leaving out the whitespace and line breaks around them', () => {
    const sentences = sentenceSpans(text).map((s) => text.slice(s.start, s.end));
    expect(sentences).toEqual(['The bees hum.', 'They make honey!', 'My friend’s hive is old.']);
    const heading = 'Chapter 1\nOwls hunt.';
    expect(sentenceSpans(heading).map((s) => heading.slice(s.start, s.end))).toEqual(['Chapter 1', 'Owls hunt.']);
  });

  it('finds the sentence of a word', () => {
    const sentences = sentenceSpans(text);
    expect(text.slice(spanAt(sentences, 19)!.start, spanAt(sentences, 19)!.end)).toBe('They make honey!');
    expect(spanAt(sentences, 13)).toBeNull();
    expect(spanAt(sentences, 999)).toBeNull();
  });
});
