import { describe, expect, it } from 'vitest';
import { DECODE_CLASSES, DECODE_LEGEND, sanitizeDecodedHtml } from '../../src/domain/decode';
import { DECODE_CLASSES as SERVER_CLASSES } from '../../server/phonics/markup';
import { DECODE_LEGEND as SERVER_LEGEND } from '../../server/phonics/legend';
import { passagePlainText } from '../../src/domain/sanitize';

describe('decoded markup in the reader', () => {
  it('knows every class the server emits, and shares its legend', () => {
    expect(DECODE_CLASSES).toEqual(SERVER_CLASSES);
    expect(SERVER_LEGEND).toBe(DECODE_LEGEND);
    const cues = new Set(DECODE_LEGEND.map((e) => e.className));
    for (const c of ['dc-syl', 'dc-digraph', 'dc-team', 'dc-r', 'dc-silent', 'dc-cle', 'dc-heart']) expect(cues.has(c)).toBe(true);
  });

  it('keeps the decoder spans and their classes, and the text', () => {
    const html =
      '<p><span class="dc-word"><span class="dc-syl">ta</span><span class="dc-syl dc-cle">ble</span></span> <span class="dc-word">cak<span class="dc-silent dc-silent-e">e</span></span></p>';
    expect(sanitizeDecodedHtml(html)).toBe(html);
    expect(passagePlainText(sanitizeDecodedHtml(html))).toBe('table cake');
  });

  it('drops other classes, attributes and tags', () => {
    expect(sanitizeDecodedHtml('<p><span class="dc-team evil" onclick="x()" style="color:red">ai</span><script>bad()</script><a href="x">y</a></p>')).toBe(
      '<p><span class="dc-team">ai</span>y</p>',
    );
    expect(sanitizeDecodedHtml('<span class="other">z</span>')).toBe('<span>z</span>');
  });
});
