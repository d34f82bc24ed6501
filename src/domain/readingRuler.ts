/**
 * The reading ruler (docs/reading-aids.md): a band of 1, 2 or 3 lines of the passage stays clear while the
 * rest is dimmed. The view measures where the lines are (the boxes of the text, a DOM fact) and these rules say
 * which lines the band covers: where the pointer is, or a line up or down from the keyboard.
 */

/** The reader setting: off (the default) or the band's height in lines. */
export const READING_RULER_OPTIONS = ['off', '1', '2', '3'] as const;
export type ReadingRulerOption = (typeof READING_RULER_OPTIONS)[number];
export const READING_RULER_LABELS: Record<ReadingRulerOption, string> = { off: 'Off', '1': '1 line', '2': '2 lines', '3': '3 lines' };

/** How many lines the band keeps clear; 0 when the ruler is off. */
export function rulerLineCount(option: ReadingRulerOption): number {
  return option === 'off' ? 0 : Number(option);
}

/** A vertical extent, in the passage's own coordinates (pixels from its top). */
export interface LineBox {
  top: number;
  bottom: number;
}

/**
 * The lines of a text from the boxes of its pieces (a Range's client rects): boxes whose vertical extents overlap
 * by more than half of the smaller one are one line (a word in another font or an inline mark sits a little higher
 * or lower). Ordered from the top; empty boxes are left out.
 */
export function textLines(boxes: readonly LineBox[]): LineBox[] {
  const sorted = boxes.filter((b) => b.bottom > b.top).sort((a, b) => a.top - b.top || a.bottom - b.bottom);
  const lines: LineBox[] = [];
  for (const box of sorted) {
    const last = lines[lines.length - 1];
    const overlap = last ? Math.min(last.bottom, box.bottom) - Math.max(last.top, box.top) : 0;
    if (last && overlap > Math.min(last.bottom - last.top, box.bottom - box.top) / 2) {
      last.top = Math.min(last.top, box.top);
      last.bottom = Math.max(last.bottom, box.bottom);
    } else {
      lines.push({ top: box.top, bottom: box.bottom });
    }
  }
  return lines;
}

/** The first line a band of `band` lines may start at, so that it never runs past the last line. */
function lastStart(lineCount: number, band: number): number {
  return Math.max(0, lineCount - band);
}

/** The band's first line, kept within the text. */
export function clampStart(start: number, lineCount: number, band: number): number {
  return Math.min(Math.max(0, Math.round(start)), lastStart(lineCount, band));
}

/** The band's first line for a pointer at `y`: the line under it (or the nearest) in the middle of the band. */
export function startForPointer(lines: readonly LineBox[], y: number, band: number): number {
  if (lines.length === 0) return 0;
  let nearest = 0;
  let distance = Infinity;
  lines.forEach((line, i) => {
    const d = y < line.top ? line.top - y : y > line.bottom ? y - line.bottom : 0;
    if (d < distance) {
      distance = d;
      nearest = i;
    }
  });
  return clampStart(nearest - Math.floor((band - 1) / 2), lines.length, band);
}

/** ArrowUp and ArrowDown move the band a line; Home and End to the first and last lines; anything else: null. */
export function startForKey(key: string, start: number, lineCount: number, band: number): number | null {
  const moves: Record<string, number> = { ArrowUp: start - 1, ArrowDown: start + 1, Home: 0, End: lastStart(lineCount, band) };
  return key in moves ? clampStart(moves[key], lineCount, band) : null;
}

/** The clear band: from the top of its first line to the bottom of its last; null without lines. */
export function rulerBand(lines: readonly LineBox[], start: number, band: number): LineBox | null {
  if (lines.length === 0) return null;
  const first = clampStart(start, lines.length, band);
  const last = Math.min(lines.length, first + band) - 1;
  return { top: lines[first].top, bottom: lines[last].bottom };
}
