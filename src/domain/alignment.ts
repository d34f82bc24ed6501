/**
 * Two editions of one passage side by side (SPEC §2 Two-column mode): which part of the other column
 * corresponds to the sentence being spoken in the column that plays. Pure, so the reader's highlight, the content
 * check (server/content/check.ts) and the tests share one rule.
 *
 * The rule:
 * - Texts are plain passage texts (`passagePlainText`, src/domain/sanitize.ts): a paragraph is a '\n'-separated
 *   chunk.
 * - Paragraphs align one for one, and only when both texts have as many paragraphs. Otherwise nothing aligns, and
 *   `npm run content:check` fails for our own library.
 * - Within a pair of paragraphs, sentences align one for one when both have as many sentences
 *   (`sentenceSpans`, Intl.Segmenter). Otherwise the whole paragraph corresponds to each of its sentences.
 */
import { sentenceSpans, spanAt, type TextSpan } from './speechMarks';

/** One side of an alignment: a passage's plain text and the locale its sentences are segmented in. */
export interface AlignText {
  text: string;
  /** A BCP 47 language code, e.g. 'en', 'es', 'zh'. */
  locale: string;
}

/** A pair of paragraphs, with their sentences; every span is an index range into its own whole text. */
export interface AlignedParagraph {
  source: TextSpan;
  target: TextSpan;
  sourceSentences: readonly TextSpan[];
  targetSentences: readonly TextSpan[];
  /** Both paragraphs have as many sentences, so sentence i matches sentence i. */
  bySentence: boolean;
}

export interface PassageAlignment {
  sourceParagraphs: number;
  targetParagraphs: number;
  /** The pairs of paragraphs, in order; empty when the paragraph counts differ. */
  paragraphs: readonly AlignedParagraph[];
}

/** What the other column highlights. */
export interface AlignedHighlight {
  /** The paragraph's index (0-based) in the target text. */
  paragraph: number;
  /** The sentence's index (0-based) within that paragraph, or null when the whole paragraph is highlighted. */
  sentence: number | null;
  /** The span of the target text to highlight. */
  span: TextSpan;
}

/** The paragraphs of a plain text: its '\n'-separated chunks, without surrounding whitespace; blank chunks are left out. */
export function paragraphSpans(text: string): TextSpan[] {
  const out: TextSpan[] = [];
  let start = 0;
  for (const chunk of text.split('\n')) {
    let from = start;
    let to = start + chunk.length;
    while (from < to && /\s/.test(text[from])) from++;
    while (to > from && /\s/.test(text[to - 1])) to--;
    if (to > from) out.push({ start: from, end: to });
    start += chunk.length + 1;
  }
  return out;
}

/** The sentences of one paragraph of `text`, as spans of the whole text. */
function sentencesOf(text: string, paragraph: TextSpan, locale: string): TextSpan[] {
  return sentenceSpans(text.slice(paragraph.start, paragraph.end), locale).map((s) => ({ start: s.start + paragraph.start, end: s.end + paragraph.start }));
}

/** Aligns two editions of one passage: paragraph for paragraph, and sentence for sentence where the counts agree. */
export function alignPassages(source: AlignText, target: AlignText): PassageAlignment {
  const sourceParagraphs = paragraphSpans(source.text);
  const targetParagraphs = paragraphSpans(target.text);
  if (sourceParagraphs.length !== targetParagraphs.length) {
    return { sourceParagraphs: sourceParagraphs.length, targetParagraphs: targetParagraphs.length, paragraphs: [] };
  }
  const paragraphs = sourceParagraphs.map((s, i): AlignedParagraph => {
    const t = targetParagraphs[i];
    const sourceSentences = sentencesOf(source.text, s, source.locale);
    const targetSentences = sentencesOf(target.text, t, target.locale);
    return { source: s, target: t, sourceSentences, targetSentences, bySentence: sourceSentences.length === targetSentences.length };
  });
  return { sourceParagraphs: sourceParagraphs.length, targetParagraphs: targetParagraphs.length, paragraphs };
}

/**
 * What the target highlights while the source speaks at `sourceOffset` (a speech mark's offset: the start of the
 * word being spoken): the matching sentence, or the whole matching paragraph. Null when the offset is in no
 * paragraph or the passages do not align.
 */
export function alignedHighlight(alignment: PassageAlignment, sourceOffset: number): AlignedHighlight | null {
  const index = alignment.paragraphs.findIndex((p) => sourceOffset >= p.source.start && sourceOffset < p.source.end);
  if (index < 0) return null;
  const pair = alignment.paragraphs[index];
  if (pair.bySentence) {
    const sentence = spanAt(pair.sourceSentences, sourceOffset);
    if (sentence) {
      const at = pair.sourceSentences.indexOf(sentence);
      return { paragraph: index, sentence: at, span: pair.targetSentences[at] };
    }
  }
  return { paragraph: index, sentence: null, span: pair.target };
}

/** How well two editions of a passage line up, for the content check's report. */
export interface AlignmentSummary {
  /** The paragraph counts agree (the passages align at all). */
  aligned: boolean;
  /** Paragraphs in the source text. */
  paragraphs: number;
  /** Aligned paragraph pairs whose sentences align one for one. */
  bySentence: number;
}

export function alignmentSummary(alignment: PassageAlignment): AlignmentSummary {
  return {
    aligned: alignment.sourceParagraphs === alignment.targetParagraphs,
    paragraphs: alignment.sourceParagraphs,
    bySentence: alignment.paragraphs.filter((p) => p.bySentence).length,
  };
}
