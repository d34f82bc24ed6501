/**
 * Tap a word to hear it (docs/reading-aids.md "Tap a word"): which word a tap or the keyboard's
 * word cursor lands on, and which stretch of the passage's narration says it. The speech marks give each word's
 * start time; a word lasts until the next mark.
 */
import { markWordSpans, spanAt, wordSpans, type SpeechMark, type TextSpan } from './speechMarks';

/**
 * How long a tapped word waits for narration that is still being made before it says 'Audio not available'. The
 * issue's "usual 2 s", the spec's toast and confirmation time. @default 2000
 */
export const WORD_WAIT_MS = 2000;
/** The length given to the passage's last word when the narration's length is not known. @default 1200 */
export const LAST_WORD_MS = 1200;

/** Where a word was tapped: the passage's plain text (src/domain/sanitize.ts passagePlainText), its locale and the offset. */
export interface WordTarget {
  text: string;
  locale: string;
  offset: number;
}

/** A stretch of narration, in seconds. */
export interface WordTimes {
  start: number;
  end: number;
}

/** The word (a word-like segment) that holds `offset`, or null on a space or punctuation. */
export function wordAt(text: string, locale: string, offset: number): TextSpan | null {
  return spanAt(wordSpans(text, locale), offset);
}

/** The speech mark that says the word at `offset`: the first mark inside that word; -1 when none does. */
export function markIndexForOffset(target: WordTarget, marks: readonly SpeechMark[]): number {
  const word = wordAt(target.text, target.locale, target.offset);
  if (!word) return -1;
  const spans = markWordSpans(target.text, marks, target.locale);
  return spans.findIndex((span) => span.start >= word.start && span.start < word.end);
}

/** Mark `index`'s stretch: from its time to the next later mark's (the last word runs to the end, or LAST_WORD_MS). */
export function wordTimes(marks: readonly SpeechMark[], index: number, durationSeconds: number): WordTimes {
  const start = marks[index].time / 1000;
  const next = marks.slice(index + 1).find((m) => m.time > marks[index].time);
  const end = next ? next.time / 1000 : durationSeconds > start ? durationSeconds : start + LAST_WORD_MS / 1000;
  return { start, end };
}

/** The stretch that says the word at the target, or null when no mark says it. */
export function wordTimesAt(target: WordTarget, marks: readonly SpeechMark[], durationSeconds: number): WordTimes | null {
  const index = markIndexForOffset(target, marks);
  return index < 0 ? null : wordTimes(marks, index, durationSeconds);
}

/** The word cursor's next word: `step` words on from the one at `offset` (clamped), or the first word. */
export function stepWord(text: string, locale: string, offset: number | null, step: number): TextSpan | null {
  const words = wordSpans(text, locale);
  if (!words.length) return null;
  if (offset === null) return words[0];
  let at = words.findIndex((w) => w.end > offset);
  if (at < 0) at = words.length - 1;
  return words[Math.max(0, Math.min(words.length - 1, at + step))];
}
