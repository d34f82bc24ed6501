/**
 * Highlight the sentence and the word being spoken (SPEC §4 Highlight), with the CSS Custom Highlight API, so the
 * passage's DOM is never changed. A requestAnimationFrame loop reads the audio's time from the engine (the audio
 * element's currentTime, not timeupdate), finds the word by binary search over the speech marks
 * (src/domain/speechMarks.ts) and moves the two highlights. The rendered element also carries the word's index
 * and mark time (data-highlight-word, data-highlight-time), for tests and the drift bench.
 *
 * In two columns the other column follows (`useAlignedHighlight`): the same loop over the playing
 * column's marks, and the domain's alignment rule (src/domain/alignment.ts) says which sentence or paragraph of
 * this column matches the word being spoken. Its element carries data-aligned-paragraph and data-aligned-sentence.
 */
import { useEffect, type RefObject } from 'react';
import { alignedHighlight, alignPassages } from '../../../domain/alignment';
import { passagePlainText } from '../../../domain/sanitize';
import { markIndexAt, markWordSpans, sentenceSpans, spanAt, type SpeechMark } from '../../../domain/speechMarks';
import { getEngine } from '../../engine/engine';
import { mapPassageText } from './passageRanges';

/** The names of the highlights; reader.css styles `::highlight(…)` with the first two, alignedHighlight.css the third. */
export const SENTENCE_HIGHLIGHT = 'lectern-sentence';
export const WORD_HIGHLIGHT = 'lectern-word';
export const ALIGNED_HIGHLIGHT = 'lectern-aligned';

/** The page's highlight of that name, registered on first use; null without the CSS Custom Highlight API. */
export function highlightNamed(name: string): Highlight | null {
  if (typeof CSS === 'undefined' || !('highlights' in CSS) || typeof Highlight === 'undefined') return null;
  let h = CSS.highlights.get(name);
  if (!h) {
    h = new Highlight();
    CSS.highlights.set(name, h);
  }
  return h;
}

/**
 * Follows the narration as it plays: once per animation frame it reads the audio's time from the engine and finds
 * the mark being spoken; `onMark` hears of each new index (-1 before the first mark). Returns the stop.
 */
function followSpokenMark(marks: readonly SpeechMark[], onMark: (index: number) => void): () => void {
  const engine = getEngine();
  let shown = -2;
  let frame = 0;
  const loop = () => {
    const index = markIndexAt(marks, engine.getAudioTime() * 1000);
    if (index !== shown) {
      shown = index;
      onMark(index);
    }
    frame = requestAnimationFrame(loop);
  };
  frame = requestAnimationFrame(loop);
  return () => cancelAnimationFrame(frame);
}

/**
 * Runs `work` in a task after the next frame, and returns its cancel. A new passage's highlight is worked out
 * there (its words, sentences and text map): a page turn's frame shows the text, and the highlight follows in the
 * frame after (docs/performance.md "Every page turn within a frame").
 */
export function afterNextFrame(work: () => void): () => void {
  let task: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    task = setTimeout(work, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(task);
  };
}

function registry(): { sentence: Highlight; word: Highlight } | null {
  const sentence = highlightNamed(SENTENCE_HIGHLIGHT);
  const word = highlightNamed(WORD_HIGHLIGHT);
  return sentence && word ? { sentence, word } : null;
}

export function useSpeechHighlight({
  containerRef,
  html,
  marks,
  locale,
  active,
}: {
  containerRef: RefObject<HTMLElement | null>;
  /** The HTML rendered in the container (the passage text the marks index into). */
  html: string;
  marks: readonly SpeechMark[] | undefined;
  locale: string;
  active: boolean;
}): void {
  useEffect(() => {
    const el = containerRef.current;
    const highlights = registry();
    if (!active || !el || !marks?.length) return;
    let ranges: { word: Range | null; sentence: Range | null } = { word: null, sentence: null };

    const clear = () => {
      if (highlights && ranges.word) highlights.word.delete(ranges.word);
      if (highlights && ranges.sentence) highlights.sentence.delete(ranges.sentence);
      ranges = { word: null, sentence: null };
    };

    let stop = () => {};
    const cancel = afterNextFrame(() => {
      const plain = passagePlainText(html);
      const map = mapPassageText(el);
      if (map.text !== plain) console.warn('Highlight: the rendered text differs from the plain text of the passage');
      const words = markWordSpans(plain, marks, locale);
      const sentences = sentenceSpans(plain, locale);
      stop = followSpokenMark(marks, (index) => {
        clear();
        if (index >= 0) {
          const word = words[index];
          const sentence = spanAt(sentences, word.start);
          ranges = { word: map.range(word.start, word.end), sentence: sentence ? map.range(sentence.start, sentence.end) : null };
          if (highlights && ranges.sentence) highlights.sentence.add(ranges.sentence);
          if (highlights && ranges.word) highlights.word.add(ranges.word);
          el.dataset.highlightWord = String(index);
          el.dataset.highlightTime = String(marks[index].time);
        } else {
          delete el.dataset.highlightWord;
          delete el.dataset.highlightTime;
        }
      });
    });

    return () => {
      cancel();
      stop();
      clear();
      delete el.dataset.highlightWord;
      delete el.dataset.highlightTime;
    };
  }, [containerRef, html, marks, locale, active]);
}

/**
 * The other column's highlight in two-column mode: while `source` (the playing column's passage) is spoken, light
 * the part of this column's passage that matches the sentence being spoken: the sentence, or the whole paragraph.
 */
export function useAlignedHighlight({
  containerRef,
  html,
  locale,
  sourceHtml,
  sourceMarks,
  sourceLocale,
}: {
  containerRef: RefObject<HTMLElement | null>;
  /** The HTML rendered in this column's container. */
  html: string;
  locale: string;
  /** The playing column's HTML, its speech marks and its language; null or empty while this column follows none. */
  sourceHtml: string | null;
  sourceMarks: readonly SpeechMark[] | undefined;
  sourceLocale: string | null;
}): void {
  useEffect(() => {
    const el = containerRef.current;
    if (!el || sourceHtml === null || sourceLocale === null || !sourceMarks?.length) return;
    const marks = sourceMarks;
    const highlight = highlightNamed(ALIGNED_HIGHLIGHT);
    let shownKey = '';
    let range: Range | null = null;

    const clear = () => {
      if (highlight && range) highlight.delete(range);
      range = null;
      delete el.dataset.alignedParagraph;
      delete el.dataset.alignedSentence;
    };

    let stop = () => {};
    const cancel = afterNextFrame(() => {
      const map = mapPassageText(el);
      const alignment = alignPassages({ text: passagePlainText(sourceHtml), locale: sourceLocale }, { text: passagePlainText(html), locale });
      stop = followSpokenMark(marks, (index) => {
        const aligned = index >= 0 ? alignedHighlight(alignment, marks[index].offset) : null;
        // A new word in the same sentence (or paragraph) leaves the highlight as it is.
        const key = aligned ? `${aligned.paragraph}:${aligned.sentence ?? ''}` : '';
        if (key === shownKey) return;
        shownKey = key;
        clear();
        if (!aligned) return;
        range = map.range(aligned.span.start, aligned.span.end);
        if (highlight && range) highlight.add(range);
        el.dataset.alignedParagraph = String(aligned.paragraph);
        if (aligned.sentence !== null) el.dataset.alignedSentence = String(aligned.sentence);
      });
    });
    return () => {
      cancel();
      stop();
      clear();
    };
  }, [containerRef, html, locale, sourceHtml, sourceMarks, sourceLocale]);
}
