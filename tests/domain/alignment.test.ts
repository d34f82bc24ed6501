/** The two-column alignment rule (src/domain/alignment.ts): paragraph for paragraph, sentence for sentence when the counts agree. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignedHighlight, alignmentSummary, alignPassages, paragraphSpans } from '../../src/domain/alignment';
import { passagePlainText } from '../../src/domain/sanitize';

const en = passagePlainText('<p>The fox sat down. He began to count.</p><p>“One,” he said. “Two.” Then he slept.</p><p>Morning came.</p>');
const es = passagePlainText('<p>El zorro se sentó. Empezó a contar.</p><p>«Uno», dijo, «dos», y se durmió.</p><p>Llegó la mañana.</p>');
const slice = (text: string, span: { start: number; end: number } | null | undefined) => (span ? text.slice(span.start, span.end) : null);

describe('paragraphs', () => {
  it('are the newline-separated chunks of the plain text, trimmed, blank ones left out', () => {
    expect(paragraphSpans(en).map((s) => en.slice(s.start, s.end))).toEqual(['The fox sat down. He began to count.', '“One,” he said. “Two.” Then he slept.', 'Morning came.']);
    expect(paragraphSpans(' a b \n\n  c')).toEqual([{ start: 1, end: 4 }, { start: 9, end: 10 }]);
    expect(paragraphSpans('')).toEqual([]);
  });
});

describe('aligning two editions of a passage', () => {
  const alignment = alignPassages({ text: en, locale: 'en' }, { text: es, locale: 'es' });

  it('pairs paragraphs one for one, and sentences where both paragraphs have as many', () => {
    expect(alignment.sourceParagraphs).toBe(3);
    expect(alignment.targetParagraphs).toBe(3);
    expect(alignment.paragraphs.map((p) => [p.sourceSentences.length, p.targetSentences.length, p.bySentence])).toEqual([
      [2, 2, true],
      [3, 1, false],
      [1, 1, true],
    ]);
    expect(alignmentSummary(alignment)).toEqual({ aligned: true, paragraphs: 3, bySentence: 2 });
  });

  it('highlights the matching sentence in a paragraph whose sentences align', () => {
    const at = (word: string) => alignedHighlight(alignment, en.indexOf(word));
    expect(at('fox')).toMatchObject({ paragraph: 0, sentence: 0 });
    expect(slice(es, at('fox')?.span)).toBe('El zorro se sentó.');
    expect(slice(es, at('count')?.span)).toBe('Empezó a contar.');
    expect(at('He')).toMatchObject({ paragraph: 0, sentence: 1 });
    expect(slice(es, at('Morning')?.span)).toBe('Llegó la mañana.');
  });

  it('highlights the whole paragraph when the sentence counts differ', () => {
    for (const word of ['One', 'Two', 'slept']) {
      const h = alignedHighlight(alignment, en.indexOf(word));
      expect(h).toMatchObject({ paragraph: 1, sentence: null });
      expect(slice(es, h?.span)).toBe('«Uno», dijo, «dos», y se durmió.');
    }
  });

  it('works the other way round (the right column plays)', () => {
    const back = alignPassages({ text: es, locale: 'es' }, { text: en, locale: 'en' });
    expect(slice(en, alignedHighlight(back, es.indexOf('contar'))?.span)).toBe('He began to count.');
    expect(alignedHighlight(back, es.indexOf('dijo'))).toMatchObject({ paragraph: 1, sentence: null });
  });

  it('aligns nothing when the paragraph counts differ', () => {
    const split = passagePlainText('<p>El zorro se sentó. Empezó a contar.</p><p>«Uno», dijo.</p><p>«Dos».</p><p>Y se durmió.</p><p>Llegó la mañana.</p>');
    const none = alignPassages({ text: en, locale: 'en' }, { text: split, locale: 'es' });
    expect(none.paragraphs).toEqual([]);
    expect(alignedHighlight(none, en.indexOf('fox'))).toBeNull();
    expect(alignmentSummary(none)).toEqual({ aligned: false, paragraphs: 3, bySentence: 0 });
  });

  it('has no highlight for an offset outside every paragraph (the newline between them)', () => {
    expect(alignedHighlight(alignment, en.indexOf('\n'))).toBeNull();
    expect(alignedHighlight(alignment, -1)).toBeNull();
    expect(alignedHighlight(alignment, en.length)).toBeNull();
  });

  it('segments sentences in the target’s language (Chinese full stops)', () => {
    const zh = passagePlainText('<p>狐狸坐下了。他开始数数。</p><p>“一，”他说。“二。”然后他睡着了。</p><p>早晨来了。</p>');
    const toZh = alignPassages({ text: en, locale: 'en' }, { text: zh, locale: 'zh' });
    expect(slice(zh, alignedHighlight(toZh, en.indexOf('count'))?.span)).toBe('他开始数数。');
  });

  it('always gives a span inside the target’s matching paragraph, for any texts with as many paragraphs', () => {
    const sentence = fc.stringMatching(/^[A-Za-z]{1,8}( [a-z]{1,8}){0,5}[.!?]$/);
    const paragraph = fc.array(sentence, { minLength: 1, maxLength: 4 }).map((s) => s.join(' '));
    fc.assert(
      fc.property(fc.array(fc.tuple(paragraph, paragraph), { minLength: 1, maxLength: 5 }), fc.nat(), (pairs, pick) => {
        const source = pairs.map(([s]) => s).join('\n');
        const target = pairs.map(([, t]) => t).join('\n');
        const a = alignPassages({ text: source, locale: 'en' }, { text: target, locale: 'en' });
        const words = [...source.matchAll(/[A-Za-z]+/g)].map((m) => m.index);
        const offset = words[pick % words.length];
        const h = alignedHighlight(a, offset);
        expect(h).not.toBeNull();
        const para = paragraphSpans(target)[h!.paragraph];
        const sourcePara = paragraphSpans(source)[h!.paragraph];
        expect(offset >= sourcePara.start && offset < sourcePara.end).toBe(true);
        expect(h!.span.start >= para.start && h!.span.end <= para.end).toBe(true);
        if (h!.sentence === null) expect(h!.span).toEqual(para);
      }),
    );
  });
});
