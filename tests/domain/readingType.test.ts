import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  PAGE_TINT_PALETTES,
  PAGE_TINTS,
  readingPageStyle,
  TEXT_SPACING_VALUES,
  TEXT_SPACINGS,
  tintContrastPairs,
  WCAG_TEXT_SPACING,
} from '../../src/domain/readingType';

describe('page tints', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The WCAG example grey: #767676 on white is 4.54:1.
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  for (const tint of PAGE_TINTS) {
    it(`${tint}: the passage text reaches 7:1 (AAA) and every label 4.5:1`, () => {
      const pairs = tintContrastPairs(PAGE_TINT_PALETTES[tint]);
      expect(pairs.some((p) => p.min === 7 && p.name === 'text on the page')).toBe(true);
      for (const pair of pairs) {
        expect({ pair: pair.name, ok: contrastRatio(pair.fg, pair.bg) >= pair.min }).toEqual({ pair: pair.name, ok: true });
      }
    });
  }

  it("white is the app's own tokens, so the default page does not change", () => {
    const css = readFileSync(new URL('../../src/styles.css', import.meta.url), 'utf8');
    const token = (name: string) => new RegExp(`--color-${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(css)?.[1];
    const white = PAGE_TINT_PALETTES.white;
    expect([white.paper, white.surface, white.ink, white.inkMuted, white.line, white.lineStrong, white.accent, white.strong, white.hover, white.pressed, white.focus]).toEqual(
      ['paper', 'surface', 'ink', 'ink-muted', 'line', 'line-strong', 'primary-600', 'primary-900', 'primary-50', 'primary-100', 'focus'].map(token),
    );
    expect(readingPageStyle({ pageTint: 'white', readingFont: 'default', textSpacing: 'default' })).toEqual({});
  });

  it('a tinted page replaces the design tokens it uses', () => {
    const style = readingPageStyle({ pageTint: 'dark', readingFont: 'default', textSpacing: 'default' });
    expect(style['--color-paper']).toBe(PAGE_TINT_PALETTES.dark.paper);
    expect(style['--color-ink']).toBe(PAGE_TINT_PALETTES.dark.ink);
  });
});

describe('spacing', () => {
  it('Wider meets WCAG 1.4.12 text spacing', () => {
    const wider = TEXT_SPACING_VALUES.wider;
    expect(wider.lineHeight).toBeGreaterThanOrEqual(WCAG_TEXT_SPACING.lineHeight);
    expect(wider.letterSpacingEm).toBeGreaterThanOrEqual(WCAG_TEXT_SPACING.letterSpacingEm);
    expect(wider.wordSpacingEm).toBeGreaterThanOrEqual(WCAG_TEXT_SPACING.wordSpacingEm);
    expect(wider.paragraphSpacingEm).toBeGreaterThanOrEqual(WCAG_TEXT_SPACING.paragraphSpacingEm);
  });

  it('each step is at least as wide as the one before', () => {
    for (let i = 1; i < TEXT_SPACINGS.length; i++) {
      const [a, b] = [TEXT_SPACING_VALUES[TEXT_SPACINGS[i - 1]], TEXT_SPACING_VALUES[TEXT_SPACINGS[i]]];
      for (const key of Object.keys(a) as (keyof typeof a)[]) expect(b[key]).toBeGreaterThanOrEqual(a[key]);
    }
  });

  it('the page sets spacing and font properties only when they differ from the default', () => {
    expect(readingPageStyle({ pageTint: 'white', readingFont: 'lexend', textSpacing: 'wider' })).toEqual({
      '--reading-font-family': "'Lexend'",
      '--reading-line-height': '2',
      '--reading-letter-spacing': '0.12em',
      '--reading-word-spacing': '0.16em',
      '--reading-paragraph-spacing': '2em',
    });
  });
});
