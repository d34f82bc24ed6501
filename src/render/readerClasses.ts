/**
 * The reader's frame and passage classes, shared by the server's first screen (firstScreenHtml.ts) and the app's own
 * reader (src/ui/screens/reader): both draw the same boxes with the same classes, so the app takes the first
 * screen's place without a jump. Plain strings; Tailwind finds them in this file.
 */

/** Body text sizes by the stored font-size option (SPEC §9: 'default'; illustrated mode defaults to 'large'). */
export const FONT_SIZE_CLASSES = {
  default: 'text-[1.125rem] sm:text-[1.25rem]',
  slightly_large: 'text-[1.25rem] sm:text-[1.375rem]',
  large: 'text-[1.375rem] sm:text-[1.5625rem]',
  'extra-large': 'text-[1.5rem] sm:text-[1.8125rem]',
} as const;

/** The passage text block; its size class comes from FONT_SIZE_CLASSES. */
export const PASSAGE_TEXT_CLASS = 'prose-lectern passage-text font-serif leading-[1.75] text-ink';

/** The passage number beside the text (above it in illustrated mode). */
export const PASSAGE_NUMBER_CLASS = 'mb-3 font-sans text-sm font-medium text-ink-muted tabular-nums';
export const PASSAGE_NUMBER_BESIDE_CLASS = 'lg:absolute lg:-start-14 lg:top-[0.45em] lg:mb-0 lg:w-10 lg:text-end';

/** The part and section line over the passage. */
export const SECTION_HEADER_CLASS = 'mb-6 font-sans text-[0.8125rem] font-semibold tracking-wide text-primary-600';

/** The column frames: one column, or two side by side (wide screens only, SPEC §2 Two-column mode). */
export const ONE_COLUMN_CLASS = 'mx-auto w-full px-4 pt-6 sm:px-6 sm:pt-10';
export const ONE_COLUMN_WIDTH = { text: 'max-w-[44rem]', illustrated: 'max-w-5xl' } as const;
export const TWO_COLUMNS_CLASS = 'mx-auto grid w-full max-w-page grid-cols-2 gap-x-24 px-16 pt-8 xl:gap-x-32 xl:px-24';

/**
 * The reader's header bar: the title and author. A long title or author wraps onto another line rather than being
 * cut off with an ellipsis, so all of it is readable on a phone and with a reader's own text spacing (WCAG 1.4.12).
 */
export const READER_HEADER_CLASS = 'border-b border-line bg-surface';
export const READER_HEADER_ROW_CLASS = 'mx-auto flex w-full max-w-page items-center justify-between gap-4 px-4 py-3 sm:px-6 lg:px-10';
export const READER_TITLE_CLASS = 'font-serif text-lg leading-tight font-semibold text-primary-900 wrap-anywhere sm:text-xl';
export const READER_AUTHOR_CLASS = 'text-sm text-ink-muted wrap-anywhere';

/** The toolbar's row of controls, and the row of each column's dropdowns. */
export const TOOLBAR_ROW_CLASS = 'mx-auto flex w-full max-w-page items-center gap-2 px-4 py-2.5 sm:px-6 lg:px-10';
export const COLUMN_CONTROLS_CLASS = 'flex flex-wrap items-center gap-2 pb-6';

/**
 * The first screen's frame (firstScreenHtml.ts): one column, and TWO_COLUMNS_CLASS from lg up (the app, which knows
 * the width, picks one of the two; static HTML shows the second column only where it fits).
 */
export const FIRST_SCREEN_TWO_COLUMNS_CLASS =
  'mx-auto w-full max-w-[44rem] px-4 pt-6 sm:px-6 sm:pt-10 lg:grid lg:max-w-page lg:grid-cols-2 lg:gap-x-24 lg:px-16 lg:pt-8 xl:gap-x-32 xl:px-24';
