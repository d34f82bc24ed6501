/** The reader's first screen as static HTML (src/render/firstScreenHtml.ts), drawn with the reader's own classes. */
import { describe, expect, it } from 'vitest';
import { FIRST_SCREEN_ID } from '../../src/domain/primed';
import { firstScreenHtml, type FirstScreenColumn } from '../../src/render/firstScreenHtml';
import { FIRST_SCREEN_TWO_COLUMNS_CLASS, FONT_SIZE_CLASSES, ONE_COLUMN_CLASS, PASSAGE_TEXT_CLASS } from '../../src/render/readerClasses';

const column = (over: Partial<FirstScreenColumn['passage']> = {}, language = { code: 'en', rightToLeft: false }): FirstScreenColumn => ({
  passage: { position: 3, text: '<p>Bees make honey.</p>', partName: null, sectionName: null, imageUrl: null, imageAlt: null, ...over },
  language,
});

describe('firstScreenHtml', () => {
  it('draws the title, the author and the passage in one column, escaped and sanitized', () => {
    const html = firstScreenHtml({
      title: 'Bees & <Honey>',
      author: '"Ann" O\'Neil',
      primary: column({ text: '<p onclick="x()">Bees make honey.</p><script>alert(1)</script>' }),
      secondary: null,
    });
    expect(html.startsWith(`<div id="${FIRST_SCREEN_ID}" `)).toBe(true);
    expect(html).toContain('<h1 class="');
    expect(html).toContain('>Bees &amp; &lt;Honey&gt;</h1>');
    expect(html).toContain('>&quot;Ann&quot; O&#39;Neil</p>');
    expect(html).toContain(`<div data-first-screen-text="" class="${PASSAGE_TEXT_CLASS} ${FONT_SIZE_CLASSES.default}"><p>Bees make honey.</p></div>`);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onclick');
    expect(html).toContain(`<div class="${ONE_COLUMN_CLASS} max-w-[44rem]">`);
    expect(html).toContain('aria-hidden="true">3</p>');
    expect(html.match(/<section /g)).toHaveLength(1);
  });

  it('shows a second column from wide screens up, in its own language and direction', () => {
    const html = firstScreenHtml({
      title: 'T',
      author: 'A',
      primary: column(),
      secondary: column({ text: '<p>النحل</p>', partName: 'Part 1', sectionName: 'Hives' }, { code: 'ar', rightToLeft: true }),
    });
    expect(html).toContain(`<div class="${FIRST_SCREEN_TWO_COLUMNS_CLASS}">`);
    expect(html.match(/<section /g)).toHaveLength(2);
    expect(html).toContain('<section class="min-w-0 hidden lg:block">');
    expect(html).toContain('<article lang="ar" dir="rtl" class="py-2">');
    expect(html).toMatch(/<p class="[^"]+">Part 1[^<]*Hives<\/p>/);
  });

  it("draws the passage's picture with its alternative text", () => {
    const html = firstScreenHtml({ title: 'T', author: 'A', primary: column({ imageUrl: '/media/owl.svg', imageAlt: 'An "owl"' }), secondary: null });
    expect(html).toContain('<img src="/media/owl.svg" alt="An &quot;owl&quot;"');
  });
});
