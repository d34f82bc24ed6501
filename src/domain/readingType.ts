/**
 * Type and spacing of the reading page: the passage's font, its letter, word, line and paragraph
 * spacing, and the page's tint. Settings in `readerSettings` (src/domain/settings.ts); the values here are the
 * only place they are written. The reader's page applies them as CSS custom properties (`readingPageStyle`), and
 * reader.css reads those properties; docs/reading-aids.md "Type and spacing".
 */

// ---------------------------------------------------------------------------------------------------------------
// Fonts

export const READING_FONTS = ['default', 'atkinson', 'lexend', 'opendyslexic'] as const;
export type ReadingFont = (typeof READING_FONTS)[number];

export const READING_FONT_LABELS: Record<ReadingFont, string> = {
  default: 'Default',
  atkinson: 'Atkinson Hyperlegible',
  lexend: 'Lexend',
  opendyslexic: 'OpenDyslexic',
};

/**
 * The family each choice puts before the passage's own stack (null: the stack alone, the app's serif). Self-hosted
 * from @fontsource (src/ui/fonts/reading.ts); glyphs a family lacks (Chinese, Arabic, Bengali) fall through to the
 * language's stack, Noto included.
 */
export const READING_FONT_FAMILIES: Record<ReadingFont, string | null> = {
  default: null,
  atkinson: "'Atkinson Hyperlegible'",
  lexend: "'Lexend'",
  opendyslexic: "'OpenDyslexic'",
};

// ---------------------------------------------------------------------------------------------------------------
// Spacing

export const TEXT_SPACINGS = ['default', 'wide', 'wider'] as const;
export type TextSpacing = (typeof TEXT_SPACINGS)[number];

export const TEXT_SPACING_LABELS: Record<TextSpacing, string> = { default: 'Default', wide: 'Wide', wider: 'Wider' };

export interface SpacingValues {
  /** Line height, times the font size. */
  lineHeight: number;
  /** Extra space between letters and between words, in em. */
  letterSpacingEm: number;
  wordSpacingEm: number;
  /** Space between paragraphs, in em. */
  paragraphSpacingEm: number;
}

/** WCAG 2.2 success criterion 1.4.12 (Text Spacing): what a page must bear without loss. 'Wider' meets it. */
export const WCAG_TEXT_SPACING: SpacingValues = { lineHeight: 1.5, letterSpacingEm: 0.12, wordSpacingEm: 0.16, paragraphSpacingEm: 2 };

/**
 * Each spacing choice. 'default' is the passage's own look (leading 1.75, paragraphs 0.9 em apart: the passage text
 * class and `.prose-lectern` in src/styles.css); 'wider' meets WCAG_TEXT_SPACING; 'wide' lies between.
 */
export const TEXT_SPACING_VALUES: Record<TextSpacing, SpacingValues> = {
  default: { lineHeight: 1.75, letterSpacingEm: 0, wordSpacingEm: 0, paragraphSpacingEm: 0.9 },
  wide: { lineHeight: 1.9, letterSpacingEm: 0.05, wordSpacingEm: 0.08, paragraphSpacingEm: 1.4 },
  wider: { lineHeight: 2, letterSpacingEm: 0.12, wordSpacingEm: 0.16, paragraphSpacingEm: 2 },
};

// ---------------------------------------------------------------------------------------------------------------
// Page tints

export const PAGE_TINTS = ['white', 'cream', 'blue-grey', 'dark'] as const;
export type PageTint = (typeof PAGE_TINTS)[number];

export const PAGE_TINT_LABELS: Record<PageTint, string> = { white: 'White', cream: 'Cream', 'blue-grey': 'Blue-grey', dark: 'Dark' };

/**
 * The colours of a tinted page: the design tokens (src/styles.css @theme) the reading page uses, given new values
 * inside it. `ink` is the passage text on `paper`, and on `surface` (the column's controls); `inkMuted` the passage
 * number; `accent` the section line (primary-600); `strong` the controls' text (primary-700 to 900); `hover` and
 * `pressed` the controls' backgrounds (primary-50, primary-100).
 */
export interface TintPalette {
  paper: string;
  surface: string;
  ink: string;
  inkMuted: string;
  line: string;
  lineStrong: string;
  accent: string;
  strong: string;
  hover: string;
  pressed: string;
  focus: string;
}

/** The contrast each pair must reach (WCAG): the passage text AAA, the smaller labels AA. */
export const TINT_CONTRAST = { text: 7, label: 4.5 } as const;

/**
 * 'white' is the app's own paper and tokens (src/styles.css @theme; a unit test holds them equal), so the default page
 * looks as it always has.
 */
export const PAGE_TINT_PALETTES: Record<PageTint, TintPalette> = {
  white: {
    paper: '#f8f7f3',
    surface: '#ffffff',
    ink: '#16201f',
    inkMuted: '#485655',
    line: '#e3e1d9',
    lineStrong: '#c9c6bb',
    accent: '#266663',
    strong: '#103a3a',
    hover: '#eef7f6',
    pressed: '#d6ecea',
    focus: '#266663',
  },
  cream: {
    paper: '#f7efdc',
    surface: '#fcf7ea',
    ink: '#231c10',
    inkMuted: '#54492f',
    line: '#e6dabd',
    lineStrong: '#cdbd97',
    accent: '#4f5a1e',
    strong: '#2f3410',
    hover: '#f1e6c8',
    pressed: '#e8d9b0',
    focus: '#5b5a17',
  },
  'blue-grey': {
    paper: '#e3e9ee',
    surface: '#eef2f5',
    ink: '#121b24',
    inkMuted: '#3b4956',
    line: '#c9d3dc',
    lineStrong: '#a9b7c4',
    accent: '#1f4d6b',
    strong: '#122f44',
    hover: '#d8e1e8',
    pressed: '#c8d4de',
    focus: '#1f4d6b',
  },
  dark: {
    paper: '#121717',
    surface: '#1b2222',
    ink: '#e9eeec',
    inkMuted: '#b3bfbc',
    line: '#2c3636',
    lineStrong: '#465353',
    accent: '#8ccfc8',
    strong: '#d4ebe8',
    hover: '#223030',
    pressed: '#2b3d3d',
    focus: '#8ccfc8',
  },
};

/** WCAG relative luminance of a #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two #rrggbb colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The colour pairs of a palette that must reach a contrast, and which one (tests/domain/readingType.test.ts). */
export function tintContrastPairs(p: TintPalette): { name: string; fg: string; bg: string; min: number }[] {
  return [
    { name: 'text on the page', fg: p.ink, bg: p.paper, min: TINT_CONTRAST.text },
    { name: 'text on a control', fg: p.ink, bg: p.surface, min: TINT_CONTRAST.text },
    { name: 'control text on a control', fg: p.strong, bg: p.surface, min: TINT_CONTRAST.text },
    { name: 'control text on a hovered control', fg: p.strong, bg: p.hover, min: TINT_CONTRAST.text },
    { name: 'selected control', fg: p.surface, bg: p.strong, min: TINT_CONTRAST.text },
    { name: 'passage number', fg: p.inkMuted, bg: p.paper, min: TINT_CONTRAST.label },
    { name: 'muted text on a control', fg: p.inkMuted, bg: p.surface, min: TINT_CONTRAST.label },
    { name: 'section line', fg: p.accent, bg: p.paper, min: TINT_CONTRAST.label },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// The page

export interface ReadingTypeSettings {
  readingFont: ReadingFont;
  textSpacing: TextSpacing;
  pageTint: PageTint;
}

/**
 * The CSS custom properties the reading page sets for these settings: the design tokens of its tint, and the
 * font and spacing reader.css reads (only when they differ from the default, so the default page keeps its
 * classes' own values).
 */
export function readingPageStyle(settings: ReadingTypeSettings): Record<`--${string}`, string> {
  const style: Record<`--${string}`, string> = settings.pageTint === 'white' ? {} : tintTokens(PAGE_TINT_PALETTES[settings.pageTint]);
  const family = READING_FONT_FAMILIES[settings.readingFont];
  if (family) style['--reading-font-family'] = family;
  if (settings.textSpacing !== 'default') {
    const s = TEXT_SPACING_VALUES[settings.textSpacing];
    style['--reading-line-height'] = String(s.lineHeight);
    style['--reading-letter-spacing'] = `${s.letterSpacingEm}em`;
    style['--reading-word-spacing'] = `${s.wordSpacingEm}em`;
    style['--reading-paragraph-spacing'] = `${s.paragraphSpacingEm}em`;
  }
  return style;
}

/** A palette as the design tokens it replaces. White is the tokens themselves, so its page sets none. */
function tintTokens(p: TintPalette): Record<`--${string}`, string> {
  return {
    '--color-paper': p.paper,
    '--color-surface': p.surface,
    '--color-ink': p.ink,
    '--color-ink-muted': p.inkMuted,
    '--color-line': p.line,
    '--color-line-strong': p.lineStrong,
    '--color-focus': p.focus,
    '--color-primary-50': p.hover,
    '--color-primary-100': p.pressed,
    '--color-primary-600': p.accent,
    '--color-primary-700': p.strong,
    '--color-primary-800': p.strong,
    '--color-primary-900': p.strong,
  };
}
