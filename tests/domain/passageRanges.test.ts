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
import { mapPassageText } from '../../src/ui/screens/reader/passageRanges';

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
  for (const w of words(plain)) expect(map.range(w.start, w.end)?.toString()).toBe(w.word);
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
