import { describe, expect, it } from 'vitest';
import { clampStart, rulerBand, rulerLineCount, startForKey, startForPointer, textLines } from '../../src/domain/readingRuler';

/** Four lines of 24 px, 30 px apart, with a paragraph gap before the last. */
const LINES = [
  { top: 0, bottom: 24 },
  { top: 30, bottom: 54 },
  { top: 60, bottom: 84 },
  { top: 120, bottom: 144 },
];

describe('the reading ruler', () => {
  it('keeps 0 to 3 lines clear', () => {
    expect(rulerLineCount('off')).toBe(0);
    expect(rulerLineCount('1')).toBe(1);
    expect(rulerLineCount('3')).toBe(3);
  });

  it('merges the boxes of one line, whatever their order, and leaves out empty ones', () => {
    const boxes = [
      { top: 30, bottom: 54 },
      { top: 2, bottom: 22 }, // a smaller word on the first line
      { top: 0, bottom: 24 },
      { top: 10, bottom: 10 },
      { top: 32, bottom: 56 }, // an inline mark a little lower on the second line
      { top: 60, bottom: 84 },
    ];
    expect(textLines(boxes)).toEqual([
      { top: 0, bottom: 24 },
      { top: 30, bottom: 56 },
      { top: 60, bottom: 84 },
    ]);
    // Boxes that only touch are two lines.
    expect(textLines([{ top: 0, bottom: 20 }, { top: 19, bottom: 39 }])).toHaveLength(2);
    expect(textLines([])).toEqual([]);
  });

  it('centres the band on the line under the pointer, or the nearest, within the text', () => {
    expect(startForPointer(LINES, 40, 1)).toBe(1);
    expect(startForPointer(LINES, 40, 3)).toBe(0); // line 1 in the middle of three
    expect(startForPointer(LINES, 70, 3)).toBe(1);
    expect(startForPointer(LINES, 105, 1)).toBe(3); // in the paragraph gap, nearer the last line
    expect(startForPointer(LINES, 95, 1)).toBe(2);
    expect(startForPointer(LINES, -50, 2)).toBe(0);
    expect(startForPointer(LINES, 500, 2)).toBe(2); // two lines from the end
    expect(startForPointer([], 10, 2)).toBe(0);
  });

  it('moves a line with ArrowUp and ArrowDown, to the ends with Home and End, and stops at the ends', () => {
    expect(startForKey('ArrowDown', 0, 4, 1)).toBe(1);
    expect(startForKey('ArrowUp', 1, 4, 1)).toBe(0);
    expect(startForKey('ArrowUp', 0, 4, 1)).toBe(0);
    expect(startForKey('ArrowDown', 2, 4, 2)).toBe(2);
    expect(startForKey('End', 0, 4, 3)).toBe(1);
    expect(startForKey('Home', 3, 4, 1)).toBe(0);
    expect(startForKey('Enter', 1, 4, 1)).toBeNull();
    expect(clampStart(7, 4, 2)).toBe(2);
    expect(clampStart(-1, 4, 2)).toBe(0);
  });

  it('spans its lines, from the top of the first to the bottom of the last', () => {
    expect(rulerBand(LINES, 0, 1)).toEqual({ top: 0, bottom: 24 });
    expect(rulerBand(LINES, 1, 3)).toEqual({ top: 30, bottom: 144 });
    expect(rulerBand(LINES, 3, 3)).toEqual({ top: 30, bottom: 144 }); // kept within the text
    expect(rulerBand(LINES.slice(0, 1), 0, 3)).toEqual({ top: 0, bottom: 24 }); // a text shorter than the band
    expect(rulerBand([], 0, 2)).toBeNull();
  });
});
