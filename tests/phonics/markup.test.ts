/** Decode-mode markup: cues as classes, words never change, paragraphs kept, unknown words plain. */
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DECODE_CLASSES,
  DECODE_LEGEND,
  DECODE_NOT_AVAILABLE,
  DECODE_PHONICS_NOTE,
  decodeMarkup,
  decodeText,
  loadDictionary,
  looksLikeHtml,
  notation,
  stripDecodeMarkup,
  wordAnalyzer,
  type WordAnalyzer,
} from '../../server/phonics';
import { readLibrary } from '../../server/content/read';
import { passagePlainText } from '../../src/domain/sanitize';
import { escapeHtml } from '../../server/content/text';

let analyzer: WordAnalyzer;
beforeAll(async () => {
  analyzer = await wordAnalyzer();
});

/** The text a browser would show for some markup: tags dropped, the entities we write decoded. */
function htmlText(markup: string): string {
  return markup
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('decodeText', () => {
  it('marks syllables, consonant+le, digraphs, teams, r-control, silent letters and heart words with classes', async () => {
    expect(await decodeText('table')).toBe(
      '<span class="dc-word"><span class="dc-syl">ta</span><span class="dc-syl dc-cle">ble</span></span>',
    );
    expect(await decodeText('cake')).toBe('<span class="dc-word">cak<span class="dc-silent dc-silent-e">e</span></span>');
    expect(await decodeText('ship')).toBe('<span class="dc-word"><span class="dc-digraph">sh</span>ip</span>');
    expect(await decodeText('rain')).toBe('<span class="dc-word">r<span class="dc-team">ai</span>n</span>');
    expect(await decodeText('bird')).toBe('<span class="dc-word">b<span class="dc-r">ir</span>d</span>');
    expect(await decodeText('knee')).toBe('<span class="dc-word"><span class="dc-silent">k</span>n<span class="dc-team">ee</span></span>');
    expect(await decodeText('said')).toBe('<span class="dc-word dc-heart">said</span>');
  });

  it('keeps paragraphs, inline tags, entities, punctuation and capitals as they are', async () => {
    const html = '<p>“I can&#39;t find my <em>home</em>,” Pip said.</p><p>Tom &amp; Flick ran — fast!</p>';
    const out = await decodeText(html);
    expect(stripDecodeMarkup(out)).toBe(html);
    expect(out.match(/<p>/g)).toHaveLength(2);
    expect(out).toContain('<em><span class="dc-word">');
    expect(out).toContain('can&#39;t</span>');
    expect(out).toContain('&amp;');
    expect(out).toContain('<span class="dc-word">Fli<span class="dc-digraph">ck</span></span>');
    expect(passagePlainText(out)).toBe(passagePlainText(html));
  });

  it('leaves words the dictionary does not know as plain text', async () => {
    expect(await decodeText('Zorblax met Odalie.')).toBe('Zorblax <span class="dc-word">met</span> Odalie.');
  });

  it('escapes plain text, whose shown text is then the input exactly', async () => {
    const text = 'Pip & Flick <3 "moon"\nit\'s late';
    const out = await decodeText(text);
    expect(htmlText(out)).toBe(text);
    expect(out).toContain('&amp;');
    expect(out).not.toContain('<3');
  });

  it('never changes a letter (property)', () => {
    const piece = fc.constantFrom(
      'the', 'cat', 'Sat', 'on', 'a', 'mat', 'said', 'tiger', 'little', 'knight', 'rabbit', 'sunflower', 'can’t', "don't",
      'Flick’s', 'zorblax', 'café', 'naïve', 'e\u0301', ' ', ' ', '  ', ', ', '. ', '! ', '“', '”', '—', '-', "'", '’', '&', '<', '>', '"', '\n', '42', 'x',
    );
    const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(htmlText(decodeMarkup(t, analyzer, 'text'))).toBe(t);
        const auto = decodeMarkup(t, analyzer);
        if (looksLikeHtml(t)) expect(stripDecodeMarkup(auto)).toBe(t);
        else expect(htmlText(auto)).toBe(t);
        const html = `<p>${escapeHtml(t)}</p><p><strong>${escapeHtml(t)}</strong></p>`;
        expect(stripDecodeMarkup(decodeMarkup(html, analyzer))).toBe(html);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every passage of the library intact and decodes it quickly once the dictionary is loaded', async () => {
    const library = readLibrary(path.resolve(import.meta.dirname, '../../content'));
    expect(library.problems).toEqual([]);
    let passages = 0;
    let words = 0;
    let marked = 0;
    const started = performance.now();
    for (const pub of library.publications) {
      for (const edition of [...pub.editions, ...pub.sources]) {
        if (edition.language !== 'en') continue;
        for (const p of edition.passages) {
          const out = await decodeText(p.html);
          expect(stripDecodeMarkup(out)).toBe(p.html);
          expect(passagePlainText(out)).toBe(passagePlainText(p.html));
          passages++;
          words += passagePlainText(p.html).match(/\p{L}+(?:['’]\p{L}+)*/gu)?.length ?? 0;
          marked += out.match(/class="dc-word/g)?.length ?? 0;
        }
      }
    }
    const ms = performance.now() - started;
    console.log(`Decoded ${passages} English passages (${words} words, ${marked} marked: ${((marked / words) * 100).toFixed(1)}%) in ${ms.toFixed(0)} ms`);
    expect(passages).toBeGreaterThan(20);
    expect(marked / words).toBeGreaterThan(0.97);
  });
});

describe('word analysis', () => {
  const n = (w: string) => notation(analyzer.analyze(w), w);

  it('keeps capitals and apostrophes of the word', () => {
    expect(n('Ship')).toBe('[Sh]ip');
    expect(n('Flick’s')).toBe('Fli[ck]’s');
    expect(n("can't")).toBe("can't");
  });

  it('handles inflected forms the dictionary lacks through their stem', () => {
    expect(n('hummed')).toBe('hummed');
    expect(n('squealed')).toBe('squ{ea}led');
  });

  it('marks a heart word as a whole even when its letters cannot be aligned', () => {
    expect(n('eyes')).toBe('*eyes');
  });

  it('gives up on what is not an English word', () => {
    expect(analyzer.analyze('zorblax')).toBeNull();
    expect(analyzer.analyze('qwrtp')).toBeNull();
  });
});

describe('dictionary and legend', () => {
  it('loads the dictionary once', async () => {
    const [a, b] = await Promise.all([loadDictionary(), loadDictionary()]);
    expect(a).toBe(b);
    expect(a.lookup('cat')[0].phones).toEqual(['K', 'AE', 'T']);
  });

  it('has a legend entry for every cue class, and the spec tooltips', () => {
    const classes = Object.values(DECODE_CLASSES).filter((c) => c !== DECODE_CLASSES.word && c !== DECODE_CLASSES.silentE);
    expect(new Set(DECODE_LEGEND.map((e) => e.className))).toEqual(new Set(classes));
    expect(DECODE_NOT_AVAILABLE).toBe('Decode Mode not available');
    expect(DECODE_PHONICS_NOTE).toMatch(/phonics/);
    expect(DECODE_PHONICS_NOTE).toMatch(/English/);
  });
});
