import { describe, expect, it } from 'vitest';
import { wordSpans } from '../../src/domain/speechMarks';
import { LAST_WORD_MS, markIndexForOffset, stepWord, wordAt, wordTimes, wordTimesAt } from '../../src/domain/wordAudio';

const text = 'The keeper’s lamp, bright.\nIt shone!';
// One mark per word, as the narration's speech marks give them (offsets into the plain text, times in ms).
const marks = [
  { offset: 0, time: 0 },
  { offset: 4, time: 300 },
  { offset: 13, time: 800 },
  { offset: 19, time: 1100 },
  { offset: 27, time: 1900 },
  { offset: 30, time: 2100 },
];

describe('tap a word', () => {
  it('finds the word under an offset, and none on spaces or punctuation', () => {
    expect(wordAt(text, 'en', 6)).toEqual({ start: 4, end: 12 }); // keeper’s, apostrophe and all
    expect(wordAt(text, 'en', 3)).toBeNull();
    expect(wordAt(text, 'en', 17)).toBeNull(); // the comma
    expect(wordSpans(text, 'en').map((w) => text.slice(w.start, w.end))).toEqual(['The', 'keeper’s', 'lamp', 'bright', 'It', 'shone']);
  });

  it('finds the mark that says the word, from any letter of it', () => {
    expect(markIndexForOffset({ text, locale: 'en', offset: 4 }, marks)).toBe(1);
    expect(markIndexForOffset({ text, locale: 'en', offset: 11 }, marks)).toBe(1);
    expect(markIndexForOffset({ text, locale: 'en', offset: 28 }, marks)).toBe(4);
    expect(markIndexForOffset({ text, locale: 'en', offset: 26 }, marks)).toBe(-1); // the line break
  });

  it('a word lasts from its mark to the next later one; the last to the end or LAST_WORD_MS', () => {
    expect(wordTimes(marks, 1, 3)).toEqual({ start: 0.3, end: 0.8 });
    expect(wordTimes(marks, 5, 3)).toEqual({ start: 2.1, end: 3 });
    expect(wordTimes(marks, 5, 0)).toEqual({ start: 2.1, end: 2.1 + LAST_WORD_MS / 1000 });
    // A mark at the same time as the next (espeak's merged words) runs to the next later one.
    expect(wordTimes([{ offset: 0, time: 100 }, { offset: 3, time: 100 }, { offset: 6, time: 500 }], 0, 1)).toEqual({ start: 0.1, end: 0.5 });
    expect(wordTimesAt({ text, locale: 'en', offset: 14 }, marks, 3)).toEqual({ start: 0.8, end: 1.1 });
    expect(wordTimesAt({ text, locale: 'en', offset: 3 }, marks, 3)).toBeNull();
  });

  it('moves the word cursor word by word, clamped at both ends', () => {
    const word = (offset: number | null, step: number) => {
      const w = stepWord(text, 'en', offset, step);
      return w && text.slice(w.start, w.end);
    };
    expect(word(null, 1)).toBe('The');
    expect(word(0, 1)).toBe('keeper’s');
    expect(word(4, 2)).toBe('bright');
    expect(word(30, 1)).toBe('shone');
    expect(word(0, -1)).toBe('The');
    expect(word(16, 1)).toBe('bright'); // from the comma after 'lamp', the next word on
  });
});
