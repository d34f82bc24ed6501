/**
 * The EPUB's passage markup and package, from plain values: sentence and word spans that agree with the
 * speech-mark contract's offsets, inline formatting kept well formed, escaping, the clips, and the book's shape.
 */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { buildEpub, languageTag, type EpubInput } from '../../server/epub/build';
import { paragraphsOf, passageMarkup } from '../../server/epub/passageMarkup';
import { clockFull, clockSeconds, xmlAttr, xmlText } from '../../server/epub/xml';
import { passagePlainText } from '../../src/domain/sanitize';

/** Word starts as the speech-mark contract gives them: every word-like segment, in order. */
function marksFor(html: string, times: (i: number) => number = (i) => 100 + i * 300) {
  const plain = passagePlainText(html);
  const words = [...new Intl.Segmenter('en', { granularity: 'word' }).segment(plain)].filter((s) => s.isWordLike);
  return words.map((w, i) => ({ offset: w.index, time: times(i) }));
}

describe('passage markup', () => {
  it('cuts paragraphs exactly as passagePlainText does, entities and line breaks included', () => {
    const html = '<p>  Fish &amp; chips &lt;3<br/>now  </p>\n<p><em>Tom&#39;s</em> &quot;boat&quot;</p><p>   </p>';
    const paragraphs = paragraphsOf(html);
    expect(paragraphs.map((p) => p.text).join('\n')).toBe(passagePlainText(html));
    expect(paragraphs.map((p) => p.start)).toEqual([0, passagePlainText(html).indexOf('Tom')]);
  });

  it('puts a span with an id on every sentence and on every marked word, with the right words inside', () => {
    const html = '<p>The owl woke. It was <em>very</em> dark!</p><p>Morning came.</p>';
    const marks = marksFor(html);
    const { xhtml, fragments } = passageMarkup({ html, position: 3, locale: 'en', narration: { speechMarks: marks, durationMs: 5000 } });
    expect(xhtml).toBe(
      '<p><span class="sentence" id="s3-1"><span id="w3-1">The</span> <span id="w3-2">owl</span> <span id="w3-3">woke</span>. </span>' +
        '<span class="sentence" id="s3-2"><span id="w3-4">It</span> <span id="w3-5">was</span> <span id="w3-6"><em>very</em></span> <span id="w3-7">dark</span>!</span></p>\n' +
        '<p><span class="sentence" id="s3-3"><span id="w3-8">Morning</span> <span id="w3-9">came</span>.</span></p>\n',
    );
    // Each sentence's clip: its first word's mark to the next sentence's, the last to the end of the narration.
    expect(fragments).toEqual([
      { id: 's3-1', clipBeginMs: 100, clipEndMs: 1000 },
      { id: 's3-2', clipBeginMs: 1000, clipEndMs: 2200 },
      { id: 's3-3', clipBeginMs: 2200, clipEndMs: 5000 },
    ]);
  });

  it('closes and reopens formatting at span edges, so the markup stays well formed', () => {
    const html = '<p>A <strong>big red</strong> fox.</p>';
    const { xhtml } = passageMarkup({ html, position: 1, locale: 'en', narration: { speechMarks: marksFor(html), durationMs: 2000 } });
    expect(xhtml).toContain('<span id="w1-2"><strong>big</strong></span><strong> </strong><span id="w1-3"><strong>red</strong></span>');
    expect(new DOMParserLike(xhtml).wellFormed).toBe(true);
  });

  it('escapes the text it writes', () => {
    const html = '<p>Tom &amp; Ana &lt;3 fish.</p>';
    const { xhtml } = passageMarkup({ html, position: 1, locale: 'en', narration: null });
    expect(xhtml).toBe('<p><span class="sentence" id="s1-1">Tom &amp; Ana &lt;3 fish.</span></p>\n');
  });

  it('gives no word ids and no fragments without narration', () => {
    const { xhtml, fragments } = passageMarkup({ html: '<p>One. Two.</p>', position: 2, locale: 'en', narration: null });
    expect(xhtml).not.toContain('id="w');
    expect(xhtml.match(/class="sentence"/g)).toHaveLength(2);
    expect(fragments).toEqual([]);
  });

  it('segments right-to-left text by its own sentence rules', () => {
    const html = '<p>تصطاد البوم ليلًا. ترى جيدًا في الظلام؟</p>';
    const plain = passagePlainText(html);
    const marks = [...new Intl.Segmenter('ar', { granularity: 'word' }).segment(plain)].filter((s) => s.isWordLike).map((w, i) => ({ offset: w.index, time: 50 + i * 400 }));
    const { fragments } = passageMarkup({ html, position: 1, locale: 'ar', narration: { speechMarks: marks, durationMs: 4000 } });
    expect(fragments.map((f) => f.id)).toEqual(['s1-1', 's1-2']);
    expect(fragments[1]!.clipBeginMs).toBe(marks[3]!.time);
  });
});

/** A minimal well-formedness check: every opened tag closes in order. */
class DOMParserLike {
  wellFormed: boolean;
  constructor(xml: string) {
    const stack: string[] = [];
    let ok = true;
    for (const m of xml.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)) {
      if (m[3]) continue;
      if (m[1]) ok &&= stack.pop() === m[2];
      else stack.push(m[2]!);
    }
    this.wellFormed = ok && stack.length === 0;
  }
}

describe('xml helpers', () => {
  it('escapes text and attributes, and drops characters XML forbids', () => {
    expect(xmlText('a < b & c > d\u0001')).toBe('a &lt; b &amp; c &gt; d');
    expect(xmlAttr('say "hi"\n')).toBe('say &quot;hi&quot;&#10;');
  });

  it('writes clock values', () => {
    expect(clockSeconds(1234)).toBe('1.234s');
    expect(clockFull(3_723_456)).toBe('1:02:03.456');
    expect(clockFull(5_000)).toBe('0:00:05.000');
  });

  it("tags the spec's Haitian Creole as ht", () => {
    expect(languageTag('ha')).toBe('ht');
    expect(languageTag('ar')).toBe('ar');
  });
});

describe('buildEpub', () => {
  const input: EpubInput = {
    slug: 'owls',
    version: 1,
    title: 'Owls & <Night>',
    author: 'Zora Quill',
    language: 'ur',
    level: 'ORIGINAL',
    createdAt: '2026-01-05',
    modified: new Date('2026-02-01T10:00:00.123Z'),
    cover: null,
    images: new Map(),
    segmenterLocale: 'ur',
    passages: [
      { position: 1, html: '<p>ایک.</p>', partName: 'Part', sectionName: 'One', image: null, narration: null },
      { position: 2, html: '<p>دو.</p>', partName: 'Part', sectionName: 'One', image: null, narration: null },
      { position: 3, html: '<p>تین.</p>', partName: 'Part', sectionName: 'Two', image: null, narration: null },
    ],
  };

  it('writes mimetype first, one document per section, a right-to-left spine and escaped metadata', () => {
    const book = buildEpub(input);
    const files = unzipSync(book.bytes);
    expect(Object.keys(files)[0]).toBe('mimetype');
    expect(book.sections).toBe(2);
    const opf = new TextDecoder().decode(files['EPUB/package.opf']);
    expect(opf).toContain('<dc:title>Owls &amp; &lt;Night&gt;</dc:title>');
    expect(opf).toContain('<spine page-progression-direction="rtl">');
    expect(opf).toContain('<meta property="dcterms:modified">2026-02-01T10:00:00Z</meta>');
    // Without narration: no overlays, and the metadata does not claim any.
    expect(opf).not.toContain('media:active-class');
    expect(opf).not.toContain('synchronizedAudioText');
    const nav = new TextDecoder().decode(files['EPUB/nav.xhtml']);
    expect(nav).toContain('<li><a href="text/section-001.xhtml">Part</a>\n<ol>\n<li><a href="text/section-001.xhtml">One</a></li>\n<li><a href="text/section-002.xhtml">Two</a></li>\n</ol>');
    expect(new TextDecoder().decode(files['EPUB/text/section-001.xhtml'])).toContain('<section id="passage-2">');
  });

  it('gives the same edition the same identifier every time', () => {
    const id = (b: Uint8Array) => /<dc:identifier id="pub-id">([^<]+)</.exec(new TextDecoder().decode(unzipSync(b)['EPUB/package.opf']))![1];
    expect(id(buildEpub(input).bytes)).toBe(id(buildEpub({ ...input, modified: new Date() }).bytes));
    expect(id(buildEpub(input).bytes)).not.toBe(id(buildEpub({ ...input, level: 'GOLD' }).bytes));
  });
});
