import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageInputDigits, parsePageInput, sanitizePassageHtml, sectionHeader } from '../../src/domain/passageText';

describe('passage text allow-list (SPEC §2 Reader screen)', () => {
  it('keeps p, em, strong and br', () => {
    const html = '<p>One <em>two</em> <strong>three</strong><br>four</p>';
    expect(sanitizePassageHtml(html)).toBe('<p>One <em>two</em> <strong>three</strong><br>four</p>');
  });

  it('drops attributes of allowed tags', () => {
    expect(sanitizePassageHtml('<p class="x" onclick="alert(1)" style="color:red">Hi</p>')).toBe('<p>Hi</p>');
  });

  it('removes other tags but keeps their text', () => {
    expect(sanitizePassageHtml('<p><a href="javascript:alert(1)">link</a> <span>and</span> <img src=x onerror=alert(1)>text</p>')).toBe(
      '<p>link and text</p>',
    );
  });

  it('removes script and style with their content', () => {
    expect(sanitizePassageHtml('<p>a</p><script>alert(1)</script><style>p{}</style><p>b</p>')).toBe('<p>a</p><p>b</p>');
  });

  it('keeps escaped text escaped', () => {
    expect(sanitizePassageHtml('<p>the keeper&#39;s &lt;lamp&gt;</p>')).toBe('<p>the keeper&#39;s &lt;lamp&gt;</p>');
  });

  it('never lets a tag other than p, em, strong or br through', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const out = sanitizePassageHtml(`<p>${s}</p><div onclick="x">${s}</div>`);
        const tags = [...out.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1].toLowerCase());
        for (const t of tags) expect(['p', 'em', 'strong', 'br']).toContain(t);
      }),
    );
  });
});

describe('section header', () => {
  it("joins part and section with ' // '", () => {
    expect(sectionHeader('Part One: The Rock', 'Chapter 1: Arrival')).toBe('Part One: The Rock // Chapter 1: Arrival');
  });
  it('shows whichever is set, or nothing', () => {
    expect(sectionHeader(null, 'Chapter 2')).toBe('Chapter 2');
    expect(sectionHeader('Part Two', '  ')).toBe('Part Two');
    expect(sectionHeader(null, null)).toBeNull();
    expect(sectionHeader('', undefined)).toBeNull();
  });
});

describe('page-number input (SPEC §5 Jump input: positive integers only)', () => {
  it('keeps digits only while typing', () => {
    expect(pageInputDigits('1a2-3.4 ')).toBe('1234');
    expect(pageInputDigits('-5')).toBe('5');
    expect(pageInputDigits('abc')).toBe('');
  });
  it('accepts positive integers only', () => {
    expect(parsePageInput('7')).toBe(7);
    expect(parsePageInput(' 12 ')).toBe(12);
    expect(parsePageInput('007')).toBe(7);
    expect(parsePageInput('0')).toBeNull();
    expect(parsePageInput('')).toBeNull();
    expect(parsePageInput('-3')).toBeNull();
    expect(parsePageInput('2.5')).toBeNull();
    expect(parsePageInput('1e3')).toBeNull();
  });
  it('round-trips every positive integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), (n) => {
        expect(parsePageInput(String(n))).toBe(n);
      }),
    );
  });
});
