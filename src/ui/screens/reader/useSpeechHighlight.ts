/**
 * Highlight the sentence and the word being spoken (SPEC §4 Highlight), with the CSS Custom Highlight API, so the
 * passage's DOM is never changed. A requestAnimationFrame loop reads the audio's time from the engine (the audio
 * element's currentTime, not timeupdate), finds the word by binary search over the speech marks
 * (src/domain/speechMarks.ts) and moves the two highlights. The rendered element also carries the word's index
 * and mark time (data-highlight-word, data-highlight-time), for tests and the drift bench.
 */
import { useEffect, type RefObject } from 'react';
import { passagePlainText } from '../../../domain/sanitize';
import { markIndexAt, markWordSpans, sentenceSpans, spanAt, type SpeechMark } from '../../../domain/speechMarks';
import { getEngine } from '../../engine/engine';
import { mapPassageText } from './passageRanges';

/** The names of the two highlights; reader.css styles `::highlight(…)` with them. */
export const SENTENCE_HIGHLIGHT = 'lectern-sentence';
export const WORD_HIGHLIGHT = 'lectern-word';

function registry(): { sentence: Highlight; word: Highlight } | null {
  if (typeof CSS === 'undefined' || !('highlights' in CSS) || typeof Highlight === 'undefined') return null;
  const get = (name: string) => {
    let h = CSS.highlights.get(name);
    if (!h) {
      h = new Highlight();
      CSS.highlights.set(name, h);
    }
    return h;
  };
  return { sentence: get(SENTENCE_HIGHLIGHT), word: get(WORD_HIGHLIGHT) };
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
    const plain = passagePlainText(html);
    const map = mapPassageText(el);
    if (map.text !== plain) console.warn('Highlight: the rendered text differs from the plain text of the passage');
    const words = markWordSpans(plain, marks, locale);
    const sentences = sentenceSpans(plain, locale);
    const engine = getEngine();
    let shown = -2;
    let ranges: { word: Range | null; sentence: Range | null } = { word: null, sentence: null };
    let frame = 0;

    const clear = () => {
      if (highlights && ranges.word) highlights.word.delete(ranges.word);
      if (highlights && ranges.sentence) highlights.sentence.delete(ranges.sentence);
      ranges = { word: null, sentence: null };
    };

    const show = (index: number) => {
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
    };

    const loop = () => {
      const index = markIndexAt(marks, engine.getAudioTime() * 1000);
      if (index !== shown) {
        shown = index;
        show(index);
      }
      frame = requestAnimationFrame(loop);
    };
    frame = requestAnimationFrame(loop);
    return () => {
      cancelAnimationFrame(frame);
      clear();
      delete el.dataset.highlightWord;
      delete el.dataset.highlightTime;
    };
  }, [containerRef, html, marks, locale, active]);
}
