/**
 * Speech marks from Flite's phone timings: a word's mark is the start of its first phone.
 *
 * Flite prints the phones of what it said, with their times, but not which word each phone belongs to, and what it
 * says is not the text: '$3.50' is 'three dollars fifty cents', 'Dr.' is 'doctor', 'O'Neil's' is 'oneil 's', and
 * '—' is nothing. So:
 *  1. **Units.** Each word of the plain text (Intl.Segmenter, as the contract says) becomes a unit of text: its whole
 *     whitespace-separated chunk when the chunk holds one word ('$3.50.', 'Mr.', 'O'Neil's'), else the word and what
 *     follows it up to the next word of the chunk ('well-' and 'known').
 *  2. **The phones of each unit**, said on its own, come from Flite's lexicon (flite.ts `unitPhones`).
 *  3. **Alignment.** Those phones, one unit after another, are aligned with the phones of the real synthesis (pauses
 *     left out) by a global alignment (Needleman–Wunsch: a match scores 2, a different phone −1, a skipped one −1). A
 *     word said differently in context ('Dr.' alone is 'drive', in 'Dr. Smith' it is 'doctor') still lines up,
 *     because its neighbours match exactly.
 *  4. **Times.** A unit's time is the start of the first of its phones that found a partner. A unit none of whose
 *     phones did (it was not said) gets a time between its neighbours, in proportion to the words' lengths.
 */
import type { FlitePhone } from './flite';
import { fillMissingTimes, marksFromTimes, wordsOf, type MarkTextAndTiming, type SpeechMark, type Word } from './speechMarks';

/** The unit of text for each word of `plain` (see step 1), and the words. */
export function wordUnits(plain: string, locale: string): { words: Word[]; units: string[] } {
  const words = wordsOf(plain, locale);
  const units: string[] = [];
  const isSpace = (ch: string) => /\s/.test(ch);
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    let chunkStart = w.start;
    while (chunkStart > 0 && !isSpace(plain[chunkStart - 1])) chunkStart--;
    let chunkEnd = w.end;
    while (chunkEnd < plain.length && !isSpace(plain[chunkEnd])) chunkEnd++;
    const firstInChunk = i === 0 || words[i - 1].end <= chunkStart;
    const lastInChunk = i === words.length - 1 || words[i + 1].start >= chunkEnd;
    units.push(plain.slice(firstInChunk ? chunkStart : w.start, lastInChunk ? chunkEnd : words[i + 1].start));
  }
  return { words, units };
}

const MATCH = 2;
const MISMATCH = -1;
const GAP = -1;

/**
 * Align the units' phones with the synthesis's phones (step 3) and give each unit the start (ms) of its first phone
 * that found a partner, or null.
 */
export function unitStartTimes(unitPhones: readonly (readonly string[])[], phones: readonly FlitePhone[]): (number | null)[] {
  const a: { phone: string; unit: number }[] = [];
  unitPhones.forEach((list, unit) => list.forEach((phone) => a.push({ phone, unit })));
  const b = phones.filter((p) => p.name !== 'pau');
  const n = a.length;
  const m = b.length;
  const starts: (number | null)[] = unitPhones.map(() => null);
  if (!n || !m) return starts;
  const width = m + 1;
  const score = new Int32Array((n + 1) * width);
  // 0 diagonal, 1 skip a phone of the units, 2 skip a phone of the synthesis
  const move = new Uint8Array((n + 1) * width);
  for (let i = 1; i <= n; i++) {
    score[i * width] = i * GAP;
    move[i * width] = 1;
  }
  for (let j = 1; j <= m; j++) {
    score[j] = j * GAP;
    move[j] = 2;
  }
  for (let i = 1; i <= n; i++) {
    const pa = a[i - 1].phone;
    for (let j = 1; j <= m; j++) {
      const diag = score[(i - 1) * width + j - 1] + (pa === b[j - 1].name ? MATCH : MISMATCH);
      const up = score[(i - 1) * width + j] + GAP;
      const left = score[i * width + j - 1] + GAP;
      let best = diag;
      let how = 0;
      if (up > best) {
        best = up;
        how = 1;
      }
      if (left > best) {
        best = left;
        how = 2;
      }
      score[i * width + j] = best;
      move[i * width + j] = how;
    }
  }
  // Walk back: the last partner found for a unit, walking backwards, is its first phone's.
  let i = n;
  let j = m;
  while (i > 0 && j > 0) {
    const how = move[i * width + j];
    if (how === 0) {
      starts[a[i - 1].unit] = b[j - 1].start;
      i--;
      j--;
    } else if (how === 1) i--;
    else j--;
  }
  return starts;
}

export interface FliteMarkOptions extends MarkTextAndTiming {
  /** The phones of each unit of `wordUnits(plain, locale)`, in order. */
  unitPhones: readonly (readonly string[])[];
  /** The synthesis's phones, with times in the PCM. */
  phones: readonly FlitePhone[];
}

/** The speech marks of a Flite narration (steps 3 and 4), keeping the contract of docs/narration.md. */
export function fliteSpeechMarks(options: FliteMarkOptions): SpeechMark[] {
  const { plain, locale, unitPhones, phones, pcmDurationMs, delayMs, audioDurationMs } = options;
  const words = wordsOf(plain, locale);
  if (!words.length) return [];
  if (unitPhones.length !== words.length) throw new Error(`${unitPhones.length} units of phones for ${words.length} words`);
  const found = unitStartTimes(unitPhones, phones);
  // A unit whose start came out before an earlier unit's (a poor alignment) is treated as not found.
  let last = -Infinity;
  for (let k = 0; k < found.length; k++) {
    const t = found[k];
    if (t === null) continue;
    if (t <= last) found[k] = null;
    else last = t;
  }
  const speechEnd = phones.length ? (phones.findLast((p) => p.name !== 'pau')?.end ?? pcmDurationMs) : pcmDurationMs;
  const speechStart = phones.find((p) => p.name !== 'pau')?.start ?? 0;
  fillMissingTimes(words, found, speechStart, (_, nextTime) => nextTime ?? speechEnd);
  return marksFromTimes(words, found, delayMs, audioDurationMs);
}
