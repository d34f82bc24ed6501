/** The legal texts' Markdown subset (src/domain/legalMarkdown.ts), and the real texts in content/legal/. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineText, isSafeHref, legalTitle, parseInline, parseLegalMarkdown, type Block } from '../../src/domain/legalMarkdown';

const legalDir = path.resolve(__dirname, '../../content/legal');
const read = (name: string) => fs.readFileSync(path.join(legalDir, name), 'utf8');

function allText(blocks: readonly Block[]): string {
  return blocks.map((b) => (b.kind === 'list' ? b.items.map(inlineText).join('\n') : inlineText(b.content))).join('\n');
}

describe('parseLegalMarkdown', () => {
  it('reads headings, paragraphs joined across lines, and lists with continued items', () => {
    const blocks = parseLegalMarkdown('# Title\n\nOne line\nand the next.\n\n## Part\n- first\n  continued\n- second\nAfter the list.\n### Small #');
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, content: [{ kind: 'text', text: 'Title' }] },
      { kind: 'paragraph', content: [{ kind: 'text', text: 'One line and the next.' }] },
      { kind: 'heading', level: 2, content: [{ kind: 'text', text: 'Part' }] },
      { kind: 'list', items: [[{ kind: 'text', text: 'first continued' }], [{ kind: 'text', text: 'second' }]] },
      { kind: 'paragraph', content: [{ kind: 'text', text: 'After the list.' }] },
      { kind: 'heading', level: 3, content: [{ kind: 'text', text: 'Small' }] },
    ]);
    expect(legalTitle(blocks)).toBe('Title');
  });

  it('reads strong, emphasis, code and links; unsafe links keep only their text', () => {
    expect(parseInline('a **b** *c* `d` [e](/privacy) [f](javascript:alert(1)) [g](https://example.org/x) 2 * 3')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'strong', text: 'b' },
      { kind: 'text', text: ' ' },
      { kind: 'em', text: 'c' },
      { kind: 'text', text: ' ' },
      { kind: 'code', text: 'd' },
      { kind: 'text', text: ' ' },
      { kind: 'link', text: 'e', href: '/privacy' },
      { kind: 'text', text: ' f) ' },
      { kind: 'link', text: 'g', href: 'https://example.org/x' },
      { kind: 'text', text: ' 2 * 3' },
    ]);
  });

  it('allows same-origin paths, https and mailto only', () => {
    for (const ok of ['/terms', '/', 'https://example.org', 'mailto:a@b.org']) expect(isSafeHref(ok), ok).toBe(true);
    for (const bad of ['//evil.org', 'http://example.org', 'javascript:alert(1)', 'data:text/html,x', '/\\evil.org', 'mailto:nobody'])
      expect(isSafeHref(bad), bad).toBe(false);
  });

  it('keeps markup as text: it never produces HTML', () => {
    const blocks = parseLegalMarkdown('<script>alert(1)</script> **<b>x</b>**');
    expect(blocks).toEqual([
      { kind: 'paragraph', content: [{ kind: 'text', text: '<script>alert(1)</script> ' }, { kind: 'strong', text: '<b>x</b>' }] },
    ]);
  });
});

describe.each([
  ['terms.md', 'Terms of Service'],
  ['privacy.md', 'Privacy Policy'],
])('content/legal/%s', (file, title) => {
  const blocks = parseLegalMarkdown(read(file));
  const text = allText(blocks);

  it('has its title, sections and lists', () => {
    expect(legalTitle(blocks)).toBe(title);
    expect(blocks.filter((b) => b.kind === 'heading' && b.level === 2).length).toBeGreaterThanOrEqual(4);
    expect(blocks.some((b) => b.kind === 'list')).toBe(true);
  });

  it('leaves no raw Markdown markers in the text', () => {
    expect(text).not.toMatch(/\*\*|(^|\s)\*\S|`|\]\(|^#|^\s*[-*] |\|/m);
  });

  it('links only to the other legal page', () => {
    const links = blocks.flatMap((b) => (b.kind === 'list' ? b.items.flat() : b.content)).filter((n) => n.kind === 'link');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(['/terms', '/privacy']).toContain(link.kind === 'link' && link.href);
  });

  it('says how to ask for deletion without a placeholder address', () => {
    expect(text).toMatch(/ask your school's Lectern administrator, or the operator of this Lectern server/i);
    expect(text).not.toMatch(/example\.(org|com)|@/);
  });
});

describe('the Privacy Policy', () => {
  const text = allText(parseLegalMarkdown(read('privacy.md')));
  it('says what is stored, for how long, and that no third party receives anything', () => {
    for (const phrase of ['email address', 'hashed', 'class code', 'local storage', 'Cache Storage', 'client id', '180 days', '7 days', 'No one else', 'no trackers', 'npm run admin -- user delete <email>'])
      expect(text, phrase).toContain(phrase);
  });
});
