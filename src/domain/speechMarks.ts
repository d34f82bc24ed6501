/**
 * Speech marks to highlights (SPEC §4 Highlight): which word is being spoken at a time, where that word and its
 * sentence lie in the passage's plain text (`passagePlainText`, the text the marks' offsets index into). Pure
 * functions, so the highlight loop, the bench and the tests share them.
 */

export interface SpeechMark {
  /** A JavaScript string index into the plain text: the start of a word. */
  offset: number;
  /** Milliseconds from the start of the audio. */
  time: number;
}

/** A span of the plain text, [start, end). */
export interface TextSpan {
  start: number;
  end: number;
}

/**
 * The index of the mark being spoken at `timeMs`: the last mark whose time is at or before it, found by binary
 * search (marks rise strictly in time). -1 before the first mark or without marks.
 */
export function markIndexAt(marks: readonly SpeechMark[], timeMs: number): number {
  if (!Number.isFinite(timeMs)) return -1;
  let lo = 0;
  let hi = marks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (marks[mid].time <= timeMs) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

type Segmenter = { segment(text: string): Iterable<{ segment: string; index: number; isWordLike?: boolean }> };

function segmenter(locale: string, granularity: 'word' | 'sentence'): Segmenter | null {
  const Ctor = (Intl as unknown as { Segmenter?: new (l: string, o: { granularity: string }) => Segmenter }).Segmenter;
  if (!Ctor) return null;
  try {
    return new Ctor(locale, { granularity });
  } catch {
    return new Ctor('en', { granularity });
  }
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}'’_-]/u;

/**
 * The span of each mark's word: from the mark's offset to the end of the word-like segment that starts there
 * (Intl.Segmenter 'word'; without it, the run of letters, marks, digits and apostrophes). A word never runs past
 * the next mark. Marks whose offset is outside the text get an empty span.
 */
export function markWordSpans(text: string, marks: readonly SpeechMark[], locale = 'en'): TextSpan[] {
  const ends = new Map<number, number>();
  const words = segmenter(locale, 'word');
  if (words) {
    for (const s of words.segment(text)) if (s.isWordLike !== false) ends.set(s.index, s.index + s.segment.length);
  }
  return marks.map((mark, i) => {
    const start = mark.offset;
    if (start < 0 || start >= text.length) return { start: Math.max(0, Math.min(start, text.length)), end: Math.max(0, Math.min(start, text.length)) };
    let end = ends.get(start);
    if (end === undefined) {
      end = start;
      while (end < text.length && WORD_CHAR.test(text[end])) end++;
      if (end === start) end = start + 1;
    }
    const next = marks[i + 1]?.offset;
    if (next !== undefined && next > start && end > next) end = next;
    return { start, end };
  });
}

/**
 * The words of the text, in order: Intl.Segmenter's word-like segments (without it, runs of letters, marks,
 * digits and apostrophes). Punctuation and spaces are not words.
 */
export function wordSpans(text: string, locale = 'en'): TextSpan[] {
  const words = segmenter(locale, 'word');
  const out: TextSpan[] = [];
  if (words) {
    for (const s of words.segment(text)) if (s.isWordLike !== false && /[\p{L}\p{N}]/u.test(s.segment)) out.push({ start: s.index, end: s.index + s.segment.length });
    return out;
  }
  for (let i = 0; i < text.length; ) {
    if (!WORD_CHAR.test(text[i])) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && WORD_CHAR.test(text[i])) i++;
    out.push({ start, end: i });
  }
  return out;
}

/**
 * The sentences of the text (Intl.Segmenter 'sentence'; without it, runs ending in . ! ? or a line break),
 * with surrounding whitespace left out.
 */
export function sentenceSpans(text: string, locale = 'en'): TextSpan[] {
  const raw: TextSpan[] = [];
  const sentences = segmenter(locale, 'sentence');
  if (sentences) {
    for (const s of sentences.segment(text)) raw.push({ start: s.index, end: s.index + s.segment.length });
  } else {
    const re = /[^.!?\n]*(?:[.!?]+["'”’)\]]*|\n|$)/g;
    for (let m = re.exec(text); m && m[0].length > 0; m = re.exec(text)) raw.push({ start: m.index, end: m.index + m[0].length });
  }
  const out: TextSpan[] = [];
  for (const span of raw) {
    let { start, end } = span;
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    if (end > start) out.push({ start, end });
  }
  return out;
}

/** The span that contains `offset` (binary search over sorted, non-overlapping spans), or null. */
export function spanAt(spans: readonly TextSpan[], offset: number): TextSpan | null {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = spans[mid];
    if (offset < s.start) hi = mid - 1;
    else if (offset >= s.end) lo = mid + 1;
    else return s;
  }
  return null;
}
