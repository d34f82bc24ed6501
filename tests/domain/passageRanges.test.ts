// @vitest-environment jsdom
/**
 * Offsets of the plain text (the text speech marks index into) to DOM ranges in the rendered passage: on hand-made
 * HTML, on decoded markup, and on every passage of the library, the text rebuilt from the DOM is
 * passagePlainText's, and each word's range reads that word.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { passagePlainText } from '../../src/domain/sanitize';
import { sanitizePassageHtml } from '../../src/domain/passageText';
import { sanitizeDecodedHtml } from '../../src/domain/decode';
import { mapPassageText, mapWordOffset } from '../../src/ui/screens/reader/passageRanges';

function render(html: string) {
  const el = document.createElement('div');
  el.innerHTML = html;
  return mapPassageText(el);
}

/** Every word of the plain text, with its span, by a simple rule. */
function words(text: string) {
  return [...text.matchAll(/[\p{L}\p{N}’']+/gu)].map((m) => ({ word: m[0], start: m.index!, end: m.index! + m[0].length }));
}

function expectWordsPlaced(html: string) {
  const map = render(html);
  const plain = passagePlainText(html);
  expect(map.text).toBe(plain);
  for (const w of words(plain)) {
    const range = map.range(w.start, w.end);
    expect(range?.toString()).toBe(w.word);
    // And back: each end of the word's range is the word's own offset in the plain text.
    expect(map.offsetOf(range!.startContainer, range!.startOffset)).toBe(w.start);
    expect(map.offsetOf(range!.endContainer, range!.endOffset)).toBe(w.end);
  }
}

describe('plain-text offsets to DOM ranges', () => {
  it('rebuilds the plain text: paragraphs trimmed and joined by a newline, <br> as a space, entities decoded', () => {
    const html = '<p>  The <em>bees</em> hum.</p>\n<p>They make<br>honey &amp; wax&#39;s.  </p>';
    expect(render(html).text).toBe('The bees hum.\nThey make honey & wax\'s.');
    expectWordsPlaced(html);
  });

  it('places a range across element boundaries', () => {
    const html = '<p>The <strong>bu</strong>zz of bees.</p>';
    const map = render(html);
    expect(map.range(4, 8)?.toString()).toBe('buzz');
    expect(map.range(0, 13)?.toString()).toBe('The buzz of bees.'.slice(0, 13));
    expect(map.range(5, 5)).toBeNull();
    expect(map.range(50, 60)).toBeNull();
  });

  it('works on decoded markup, whose plain text is the same', () => {
    const decoded =
      '<p><span class="dc-word"><span class="dc-syl">ta</span><span class="dc-syl dc-cle">ble</span></span> and <span class="dc-word">cak<span class="dc-silent dc-silent-e">e</span></span>.</p>';
    expectWordsPlaced(sanitizeDecodedHtml(decoded));
  });

  it('places every word of every passage in the library', () => {
    const root = path.resolve(import.meta.dirname, '../../content');
    let checked = 0;
    for (const slug of fs.readdirSync(root)) {
      const dir = path.join(root, slug);
      if (!fs.statSync(dir).isDirectory()) continue;
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.md'))) {
        const source = fs.readFileSync(path.join(dir, file), 'utf8');
        for (const passage of source.split(/\n---\n/)) {
          const paragraphs = passage
            .split(/\n{2,}/)
            .map((p) => p.trim())
            .filter((p) => p && !p.startsWith('#'));
          if (!paragraphs.length) continue;
          const escape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;');
          const html = paragraphs.map((p) => `<p>${escape(p).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>').replace(/\*(.+?)\*/g, '<em>$1</em>')}</p>`).join('\n');
          expectWordsPlaced(sanitizePassageHtml(html));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});

describe('DOM positions back to plain-text offsets (a tapped word)', () => {
  function setup(html: string) {
    const el = document.createElement('div');
    el.innerHTML = html;
    const texts: Text[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
    return { map: mapPassageText(el), texts };
  }

  it('counts from the paragraph, skipping its leading whitespace, across elements and paragraphs', () => {
    const { map, texts } = setup('<p>  The <em>bees</em> hum.</p>\n<p>They make<br>honey.</p>');
    // texts: '  The ', 'bees', ' hum.', '\n', 'They make', 'honey.'
    expect(map.text).toBe('The bees hum.\nThey make honey.');
    expect(map.offsetOf(texts[0], 2)).toBe(0); // 'T'
    expect(map.offsetOf(texts[0], 0)).toBeNull(); // the paragraph's leading spaces
    expect(map.offsetOf(texts[1], 1)).toBe(5); // 'e' of bees
    expect(map.offsetOf(texts[2], 1)).toBe(9); // 'h' of hum
    expect(map.offsetOf(texts[3], 0)).toBeNull(); // the newline between paragraphs is no text node of the plain text
    expect(map.offsetOf(texts[4], 0)).toBe(14); // 'They'
    expect(map.offsetOf(texts[5], 0)).toBe(24); // 'honey', after the <br>'s space
    expect(map.text.slice(24, 29)).toBe('honey');
  });

  it('refuses a node that is not the passage text', () => {
    const { map } = setup('<p>One two.</p>');
    expect(map.offsetOf(document.createTextNode('One two.'), 1)).toBeNull();
  });

  it('on decoded markup, a syllable inside a word finds the whole word', () => {
    const { map, texts } = setup(
      sanitizeDecodedHtml('<p><span class="dc-word"><span class="dc-syl">ta</span><span class="dc-syl dc-cle">ble</span></span> and cake.</p>'),
    );
    expect(map.text).toBe('table and cake.');
    const ble = texts.find((t) => t.data === 'ble')!;
    expect(map.offsetOf(ble, 1)).toBe(3);
  });
});

describe('a word by its place among the words (decoded text that differs from the passage)', () => {
  it('is the offset itself when the texts are the same', () => {
    expect(mapWordOffset('The bees hum.', 'The bees hum.', 'en', 5)).toBe(5);
  });

  it('finds the word with the same ordinal in the other text', () => {
    // The decoded rendering split 'ice-cream' differently and dropped the comma.
    const decoded = 'We ate ice cream and cake';
    const plain = 'We ate ice-cream, and cake.';
    expect(mapWordOffset(decoded, plain, 'en', decoded.indexOf('cream') + 2)).toBe(plain.indexOf('cream'));
    expect(mapWordOffset(decoded, plain, 'en', decoded.indexOf('cake'))).toBe(plain.indexOf('cake'));
    // And back, for the engine's word shown in the decoded rendering.
    expect(mapWordOffset(plain, decoded, 'en', plain.indexOf('ate'))).toBe(decoded.indexOf('ate'));
  });

  it('is null on a space or punctuation, or past the other text\'s words', () => {
    expect(mapWordOffset('a b', 'a b c', 'en', 1)).toBeNull();
    expect(mapWordOffset('a b c', 'a b', 'en', 4)).toBeNull();
  });
});
