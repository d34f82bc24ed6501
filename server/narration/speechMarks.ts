/**
 * Speech marks: one `{offset, time}` per word of a passage's plain text (`passagePlainText(passage.text)`), where
 * `offset` is the JavaScript string index of the word's first character and `time` the millisecond in the MP3 at
 * which the word starts. The contract (docs/narration.md):
 *  - every offset is the start of a word-like segment of the plain text (Intl.Segmenter, word granularity);
 *  - offsets and times both rise strictly; every time is below the audio's duration.
 *
 * espeak reports words by 1-based code-point position into the text it was given, merges some function words
 * into the word before ('of a', 'in the'), emits zero-length events at clause ends, and sometimes reports
 * positions inside the previous word for phrases it looked up as one ('here and there'). This module maps its
 * events onto the words of the plain text and interpolates a time for every word it did not report.
 */

/** A word or clause-end event from espeak, in the terms of the text that was spoken. */
export interface EspeakWordEvent {
  type: 'word' | 'end';
  /** 1-based code-point position in the spoken text. */
  position: number;
  /** Length in code points; 0 for clause ends (and for the occasional empty word event, which is dropped). */
  length: number;
  /** Milliseconds from the start of the synthesized PCM. */
  time: number;
}

export interface SpeechMark {
  offset: number;
  time: number;
}

export interface Word {
  start: number;
  end: number;
}

/** The text handed to espeak, with a map from each of its JS indices back to a JS index of the plain text. */
export interface SpokenText {
  text: string;
  /** toPlain[i] is the plain-text index for spoken index i; one extra entry for the end. */
  toPlain: number[];
}

const TERMINAL = /[.!?…。！？؟۔।:;]["'”’»)\]]*\s*$/u;

/**
 * Prepare plain text for espeak: '<' and '>' become spaces (espeak reads its input as markup and would swallow
 * them with what follows), and a paragraph break after text with no closing punctuation gets a full stop so that
 * espeak pauses there instead of running a heading into the next sentence.
 */
export function prepareSpokenText(plain: string): SpokenText {
  let text = '';
  const toPlain: number[] = [];
  for (let i = 0; i < plain.length; i++) {
    const ch = plain[i];
    if (ch === '\n') {
      if (!TERMINAL.test(plain.slice(Math.max(0, i - 8), i))) {
        text += '.';
        toPlain.push(i);
      }
      text += '\n';
      toPlain.push(i);
    } else if (ch === '<' || ch === '>') {
      text += ' ';
      toPlain.push(i);
    } else {
      text += ch;
      toPlain.push(i);
    }
  }
  toPlain.push(plain.length);
  return { text, toPlain };
}

const segmenters = new Map<string, Intl.Segmenter>();

/** The word-like segments of a text, as JS index ranges. */
export function wordsOf(text: string, locale: string): Word[] {
  let segmenter = segmenters.get(locale);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, segmenter);
  }
  const words: Word[] = [];
  for (const s of segmenter.segment(text)) {
    if (s.isWordLike) words.push({ start: s.index, end: s.index + s.segment.length });
  }
  return words;
}

/** JS index of each code point of a string (1 more entry for the end). */
function codePointIndices(text: string): number[] {
  const out: number[] = [];
  let i = 0;
  for (const ch of text) {
    out.push(i);
    i += ch.length;
  }
  out.push(text.length);
  return out;
}

/** Index of the word containing plain index `at`, or -1. Words are sorted and disjoint. */
function wordAt(words: Word[], at: number): number {
  let lo = 0;
  let hi = words.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid].end <= at) lo = mid + 1;
    else if (words[mid].start > at) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** Index of the first word overlapping [from, to), or -1. */
function firstWordIn(words: Word[], from: number, to: number): number {
  let lo = 0;
  let hi = words.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid].end <= from) lo = mid + 1;
    else hi = mid;
  }
  return lo < words.length && words[lo].start < to ? lo : -1;
}

/** What every way of making speech marks is given: the text, its language and the narration's timing. */
export interface MarkTextAndTiming {
  /** The plain text (what the reader shows). */
  plain: string;
  locale: string;
  /** Length of the synthesized PCM, ms. */
  pcmDurationMs: number;
  /** Added to every time: the silence the MP3 encoder puts before the first sample. */
  delayMs: number;
  /** Length of the encoded audio as decoders play it, ms. Every time stays below it. */
  audioDurationMs: number;
}

export interface AlignOptions extends MarkTextAndTiming {
  spoken: SpokenText;
  events: readonly EspeakWordEvent[];
}

/** Map espeak's events onto the words of the plain text. See the module comment for the contract. */
export function alignSpeechMarks(options: AlignOptions): SpeechMark[] {
  const { plain, spoken, events, pcmDurationMs, delayMs, audioDurationMs, locale } = options;
  const words = wordsOf(plain, locale);
  if (words.length === 0) return [];
  const cps = codePointIndices(spoken.text);
  const toPlain = (cp: number) => spoken.toPlain[cps[Math.min(Math.max(cp, 0), cps.length - 1)]];

  const clauseEnds = events.filter((e) => e.type === 'end').map((e) => e.time);
  // 1. Each non-empty word event → the plain-text word it names (or nothing, for punctuation and symbols).
  const mapped: { word: number; time: number }[] = [];
  for (const e of events) {
    if (e.type !== 'word' || e.length <= 0) continue;
    const from = toPlain(e.position - 1);
    const to = toPlain(e.position - 1 + e.length);
    let w = wordAt(words, from);
    if (w < 0) w = firstWordIn(words, from, Math.max(to, from + 1));
    if (w < 0) continue;
    mapped.push({ word: w, time: e.time });
  }

  // 2. Walk the events in order. An event naming a word at or before the last one assigned is espeak speaking
  //    on within a phrase it looked up whole ('here and there'): give it the next word, unless a later event
  //    claims that word (then it is a part of one word, such as the digits of '3.5', and is dropped).
  const times: (number | null)[] = new Array(words.length).fill(null);
  let last = -1;
  for (let k = 0; k < mapped.length; k++) {
    const { word, time } = mapped[k];
    if (word > last) {
      times[word] = time;
      last = word;
      continue;
    }
    let bound = words.length;
    for (let j = k + 1; j < mapped.length; j++) {
      if (mapped[j].word > last) {
        bound = mapped[j].word;
        break;
      }
    }
    if (last + 1 < bound) {
      last += 1;
      times[last] = time;
    }
  }

  // 3. Interpolate the words espeak did not name (merged function words): share the span from the word before
  //    to the next named word, or to the clause end if that comes first, in proportion to their lengths.
  fillMissingTimes(words, times, 0, (startTime, nextTime) => {
    const endTime = nextTime ?? pcmDurationMs;
    const clauseEnd = clauseEnds.find((t) => t > startTime);
    return clauseEnd !== undefined && clauseEnd < endTime ? clauseEnd : endTime;
  });

  // 4. Shift by the encoder delay, round to ms, and make the times rise strictly and stay inside the audio.
  return marksFromTimes(words, times, delayMs, audioDurationMs);
}

/**
 * Give each run of words without a time (null) a share of the span from the word before the run to its end, in
 * proportion to the words' lengths; the word before the run takes its share too (it is being said when the span
 * starts). A run at the start begins at `firstStart`; `endOf(start, next)` ends a run, `next` being the time of the
 * word after it (undefined at the end of the text). Shared by both voices.
 */
export function fillMissingTimes(
  words: readonly Word[],
  times: (number | null)[],
  firstStart: number,
  endOf: (startTime: number, nextTime: number | undefined) => number,
): asserts times is number[] {
  const weight = (i: number) => words[i].end - words[i].start + 1;
  let i = 0;
  while (i < words.length) {
    if (times[i] !== null) {
      i++;
      continue;
    }
    const runStart = i;
    while (i < words.length && times[i] === null) i++;
    const runEnd = i; // exclusive; times[runEnd] is the next timed word (if any)
    const anchor = runStart - 1; // the timed word before the run, or -1
    const startTime = anchor >= 0 ? (times[anchor] as number) : firstStart;
    const endTime = endOf(startTime, runEnd < words.length ? (times[runEnd] as number) : undefined);
    let total = 0;
    for (let j = Math.max(anchor, 0); j < runEnd; j++) total += weight(j);
    let acc = anchor >= 0 ? weight(anchor) : 0;
    for (let j = runStart; j < runEnd; j++) {
      times[j] = startTime + ((endTime - startTime) * acc) / total;
      acc += weight(j);
    }
  }
}

/**
 * The marks of words whose start times (ms in the PCM) are known: each time shifted by the encoder delay, rounded to
 * ms, made to rise strictly and kept inside the audio (a word that would start at or past its end gets no mark).
 * Shared by both voices (espeak's events here, Flite's phones in fliteMarks.ts).
 */
export function marksFromTimes(words: readonly Word[], times: readonly number[], delayMs: number, audioDurationMs: number): SpeechMark[] {
  const marks: SpeechMark[] = [];
  let prev = -1;
  for (let j = 0; j < words.length; j++) {
    let t = Math.round(times[j] + delayMs);
    if (t <= prev) t = prev + 1;
    if (t >= audioDurationMs) break;
    marks.push({ offset: words[j].start, time: t });
    prev = t;
  }
  return marks;
}

/** Problems with a list of speech marks for a text (empty when it keeps the contract). */
export function speechMarkProblems(plain: string, marks: readonly SpeechMark[], durationMs: number, locale: string): string[] {
  const problems: string[] = [];
  const starts = new Set(wordsOf(plain, locale).map((w) => w.start));
  marks.forEach((m, i) => {
    if (!Number.isInteger(m.offset) || !starts.has(m.offset)) problems.push(`mark ${i}: offset ${m.offset} is not the start of a word`);
    if (!(m.time >= 0) || m.time >= durationMs) problems.push(`mark ${i}: time ${m.time} is outside 0..${durationMs}`);
    if (i > 0 && m.time <= marks[i - 1].time) problems.push(`mark ${i}: time ${m.time} does not rise`);
    if (i > 0 && m.offset <= marks[i - 1].offset) problems.push(`mark ${i}: offset ${m.offset} does not rise`);
  });
  return problems;
}
