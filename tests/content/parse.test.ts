import { describe, expect, it } from 'vitest';
import { checkLibrary, parseEditionFile, parsePublication, type Problem } from '../../server/content/parse';
import { wordStats } from '../../server/content/text';

const enc = (s: string) => new TextEncoder().encode(s);
const COVER = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';

const YAML = `slug: sample-book
version: 1
title: Sample Book
author: Test Author
createdAt: 2026-01-02
cover: images/cover.svg
defaultReader:
  left: en:ORIGINAL
info:
  - title: About
    body: <p>Hello <script>alert(1)</script><a href="javascript:evil()">x</a></p>
qr:
  - code: sample-1
    edition: en:ORIGINAL
    position: 2
`;

const EDITION = `# Part One
## Chapter 1: Start
The first passage. It has *two* sentences.

![A picture](images/cover.svg)

---

Second passage, still **chapter one**.

---

## Chapter 2
Third & last <passage>.
`;

function pub(overrides: Record<string, string | null> = {}) {
  const files = new Map<string, Uint8Array>();
  const base: Record<string, string> = { 'publication.yaml': YAML, 'en.ORIGINAL.md': EDITION, 'images/cover.svg': COVER };
  for (const [k, v] of Object.entries({ ...base, ...overrides })) if (v !== null) files.set(k, enc(v));
  return parsePublication('sample-book', files);
}

function reasons(problems: Problem[]) {
  return problems.map((p) => `${p.file}:${p.line} ${p.reason}`);
}

describe('content parser: a good publication', () => {
  const result = pub();
  const value = result.value!;

  it('parses without problems', () => {
    expect(reasons(result.problems)).toEqual([]);
    expect(value.slug).toBe('sample-book');
    expect(value.defaultReader).toEqual({ left: { language: 'en', level: 'ORIGINAL' }, right: { language: 'en', level: 'ORIGINAL' } });
  });

  it('splits passages on --- and tracks part, section and shortcuts', () => {
    const ed = value.editions[0];
    expect(ed.passages.map((p) => p.position)).toEqual([1, 2, 3]);
    expect(ed.passages.map((p) => [p.partName, p.sectionName])).toEqual([
      ['Part One', 'Chapter 1: Start'],
      ['Part One', 'Chapter 1: Start'],
      ['Part One', 'Chapter 2'],
    ]);
    expect(ed.shortcuts).toEqual([
      { name: 'Chapter 1: Start', passage: 1 },
      { name: 'Chapter 2', passage: 3 },
    ]);
  });

  it('renders paragraphs and inline marks as HTML and escapes everything else', () => {
    const [p1, p2, p3] = value.editions[0].passages;
    expect(p1.html).toBe('<p>The first passage. It has <em>two</em> sentences.</p>');
    expect(p1.image).toBe('images/cover.svg');
    expect(p2.html).toBe('<p>Second passage, still <strong>chapter one</strong>.</p>');
    expect(p3.html).toBe('<p>Third &amp; last &lt;passage&gt;.</p>');
  });

  it('counts total and unique words', () => {
    const ed = value.editions[0];
    expect(ed.totalWords).toBe(15);
    expect(ed.uniqueWords).toBe(13);
  });

  it('sanitizes info HTML', () => {
    expect(value.info[0].body).not.toMatch(/script|javascript/);
    expect(value.info[0].body).toContain('<p>Hello');
  });

  it('resolves QR targets', () => {
    expect(value.qr).toEqual([{ code: 'sample-1', language: 'en', level: 'ORIGINAL', position: 2 }]);
  });

  it('gives the same hash for the same files and a different one after a change', () => {
    expect(pub().value!.hash).toBe(value.hash);
    expect(pub({ 'en.ORIGINAL.md': EDITION + '\nMore.' }).value!.hash).not.toBe(value.hash);
  });
});

describe('content parser: every kind of broken file', () => {
  const cases: [string, Record<string, string | null>, RegExp][] = [
    ['missing publication.yaml', { 'publication.yaml': null }, /publication\.yaml:1 publication\.yaml is missing/],
    ['YAML syntax error', { 'publication.yaml': 'slug: [unclosed\n' }, /publication\.yaml:\d+ YAML syntax/],
    ['duplicate YAML key', { 'publication.yaml': YAML + 'title: Again\n' }, /YAML syntax/],
    ['missing title', { 'publication.yaml': YAML.replace('title: Sample Book\n', '') }, /publication\.yaml:\d+ 'title' is required/],
    ['unknown field', { 'publication.yaml': YAML + 'colour: red\n' }, /publication\.yaml:1 Unknown field 'colour'/],
    ['bad slug', { 'publication.yaml': YAML.replace('slug: sample-book', 'slug: Sample Book') }, /publication\.yaml:1 'slug' must be lowercase/],
    ['slug differs from folder', { 'publication.yaml': YAML.replace('slug: sample-book', 'slug: other-book') }, /'slug' must equal the folder name/],
    ['version not a number', { 'publication.yaml': YAML.replace('version: 1', 'version: one') }, /publication\.yaml:2 'version' must be a whole number/],
    ['version zero', { 'publication.yaml': YAML.replace('version: 1', 'version: 0') }, /publication\.yaml:2 'version' must be at least 1/],
    ['bad date', { 'publication.yaml': YAML.replace('createdAt: 2026-01-02', 'createdAt: yesterday') }, /publication\.yaml:5 'createdAt' must be an ISO date/],
    ['impossible date', { 'publication.yaml': YAML.replace('createdAt: 2026-01-02', 'createdAt: 2026-13-45') }, /'createdAt' is not a real date/],
    ['bad rendering mode', { 'publication.yaml': YAML + 'renderingMode: COMIC\n' }, /'renderingMode' must be DEFAULT or ILLUSTRATED/],
    ['missing cover file', { 'images/cover.svg': null }, /'cover' file 'images\/cover\.svg' does not exist|Image file 'images\/cover\.svg' does not exist/],
    ['default reader without edition', { 'publication.yaml': YAML.replace('left: en:ORIGINAL', 'left: es:GOLD') }, /publication\.yaml:8 'defaultReader\.left' names 'es:GOLD', which has no edition file/],
    ['badly formed reader ref', { 'publication.yaml': YAML.replace('left: en:ORIGINAL', 'left: english') }, /'defaultReader\.left' must look like 'en:ORIGINAL'/],
    ['invented lexile', { 'publication.yaml': YAML + 'editions:\n  en.ORIGINAL:\n    lexile: hard\n' }, /'editions\.en\.ORIGINAL\.lexile' must be a Lexile figure/],
    ['lexile for a missing edition', { 'publication.yaml': YAML + 'editions:\n  es.GOLD:\n    lexile: 500L\n' }, /'editions\.es\.GOLD' has no edition file/],
    ['qr past the end', { 'publication.yaml': YAML.replace('position: 2', 'position: 9') }, /publication\.yaml:15 'qr\.0\.position' is past the last passage \(3\)/],
    ['empty info body', { 'publication.yaml': YAML.replace(/body: .*/, 'body: ""') }, /'info\.0\.body' must not be empty/],
    ['bad edition file name', { 'english.md': 'Text.' }, /english\.md:1 Edition files are named/],
    ['unknown language', { 'xx.GOLD.md': 'Text.' }, /xx\.GOLD\.md:1 Unknown language 'xx'/],
    ['unknown level', { 'en.BRONZE.md': 'Text.' }, /en\.BRONZE\.md:1 Unknown level 'BRONZE'/],
    ['empty passage', { 'en.ORIGINAL.md': 'One.\n\n---\n---\nThree.' }, /en\.ORIGINAL\.md:4 Passage 2 has no text/],
    ['trailing marker', { 'en.ORIGINAL.md': 'One.\n\n---\n' }, /en\.ORIGINAL\.md:4 The file ends with a passage marker/],
    ['empty file', { 'en.ORIGINAL.md': '' }, /en\.ORIGINAL\.md:1 The file has no passages/],
    ['heading after text', { 'en.ORIGINAL.md': 'Some text.\n## Late heading\nMore.' }, /en\.ORIGINAL\.md:2 Headings must come before the passage's text/],
    ['deep heading', { 'en.ORIGINAL.md': '### Too deep\nText.' }, /en\.ORIGINAL\.md:1 Only # \(part\) and ## \(section\) headings/],
    ['empty heading', { 'en.ORIGINAL.md': '##\nText.' }, /en\.ORIGINAL\.md:1 A heading needs a name/],
    ['image without alt', { 'en.ORIGINAL.md': '![](images/cover.svg)\nText.' }, /en\.ORIGINAL\.md:1 An image needs alt text/],
    ['missing image', { 'en.ORIGINAL.md': '![Alt](images/nope.svg)\nText.' }, /en\.ORIGINAL\.md:1 Image file 'images\/nope\.svg' does not exist/],
    ['two images', { 'en.ORIGINAL.md': '![A](images/cover.svg)\n![B](images/cover.svg)\nText.' }, /en\.ORIGINAL\.md:2 A passage can have at most one image/],
    ['malformed image', { 'en.ORIGINAL.md': '![Alt](images/cover.svg\nText.' }, /en\.ORIGINAL\.md:1 Malformed image line/],
    ['image outside the folder', { 'en.ORIGINAL.md': '![Alt](../x.svg)\nText.' }, /Image paths must stay inside the publication folder/],
    ['unsupported image type', { 'en.ORIGINAL.md': '![Alt](images/x.gif)\nText.' }, /Unsupported image type '\.gif'/],
    ['unclosed comment', { 'en.ORIGINAL.md': 'Text.\n<!-- never closed\n' }, /A comment is never closed/],
    ['script in SVG', { 'images/cover.svg': '<svg><script>alert(1)</script></svg>' }, /images\/cover\.svg:1 SVG must not contain <script>/],
    ['external href in SVG', { 'images/cover.svg': '<svg><image href="http://x/y.png"/></svg>' }, /SVG must not reference external resources/],
    ['event handler in SVG', { 'images/cover.svg': '<svg onload="x()"></svg>' }, /SVG must not contain event-handler attributes/],
    ['not an SVG', { 'images/cover.svg': 'hello' }, /SVG is not an SVG document/],
    ['too long passage', { 'en.ORIGINAL.md': 'word '.repeat(1200) }, /Passage 1 is longer than 5000 characters/],
  ];

  for (const [name, overrides, expected] of cases) {
    it(`reports ${name} with file, line and reason, and yields nothing`, () => {
      const result = pub(overrides);
      expect(result.value).toBeNull();
      expect(reasons(result.problems).join('\n')).toMatch(expected);
      for (const p of result.problems) {
        expect(p.file.startsWith('sample-book/')).toBe(true);
        expect(p.line).toBeGreaterThanOrEqual(1);
      }
    });
  }

  it('reports every problem at once, not just the first', () => {
    const result = pub({ 'en.ORIGINAL.md': '### x\n![](images/none.svg)\nText.\n---\n---\nEnd.', 'xx.GOLD.md': 'x' });
    expect(result.problems.length).toBeGreaterThanOrEqual(4);
  });

  it('skips comments', () => {
    const r = parseEditionFile('f.md', '<!-- note -->\nText one.\n<!--\nmulti\n-->\nText two.', 'en', 'GOLD', () => true);
    expect(r.value!.passages[0].html).toBe('<p>Text one. Text two.</p>');
  });

  it('warns, but does not fail, when editions have different passage counts', () => {
    const result = pub({ 'en.GOLD.md': 'Only one passage.' });
    expect(result.problems).toEqual([]);
    expect(reasons(result.warnings).join('\n')).toMatch(/different passage counts/);
  });

  it('rejects the same QR code in two publications', () => {
    const a = pub().value!;
    const b = { ...a, dir: 'other-book', slug: 'other-book' };
    expect(reasons(checkLibrary([a, b])).join('\n')).toMatch(/QR code 'sample-1' is already used by sample-book/);
  });
});

describe('word statistics', () => {
  it('counts words, not punctuation, and lower-cases for uniqueness', () => {
    expect(wordStats(['The cat. The CAT, the dog!'], 'en')).toEqual({ totalWords: 6, uniqueWords: 3 });
  });
  it('segments Chinese into words rather than counting the whole run as one', () => {
    const { totalWords } = wordStats(['狐狸想数清天上所有的星星。'], 'zh');
    expect(totalWords).toBeGreaterThan(3);
  });
});
