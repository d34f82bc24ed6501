/**
 * The reader's first screen as static HTML (docs/performance.md "Cold open"): the server puts it in the page of a
 * reader address whose passage it could read with the visitor's own cookie, so the text shows while the app's code
 * is still loading. It has the reader's frame (title bar, the toolbar's and the column controls' height) and the
 * passage with the app's own classes, so the app's reader takes its place without a jump
 * (src/ui/platform/firstScreen.ts removes it). No script, no controls: a picture of the first moment.
 *
 * Framework-free markup: plain strings from the shared domain rules (sanitizing, the section line), with no React
 * and no DOM, so the server draws it and the app's views share its classes.
 */
import { sanitizePassageHtml, sectionHeader } from '../domain/passageText';
import { FIRST_SCREEN_ID } from '../domain/primed';
import type { Passage } from '../domain/schemas';
import {
  COLUMN_CONTROLS_CLASS,
  FIRST_SCREEN_TWO_COLUMNS_CLASS,
  FONT_SIZE_CLASSES,
  ONE_COLUMN_CLASS,
  ONE_COLUMN_WIDTH,
  PASSAGE_NUMBER_BESIDE_CLASS,
  PASSAGE_NUMBER_CLASS,
  PASSAGE_TEXT_CLASS,
  READER_AUTHOR_CLASS,
  READER_HEADER_CLASS,
  READER_HEADER_ROW_CLASS,
  READER_TITLE_CLASS,
  SECTION_HEADER_CLASS,
  TOOLBAR_ROW_CLASS,
} from './readerClasses';

export { FIRST_SCREEN_ID };

export interface FirstScreenColumn {
  passage: Pick<Passage, 'position' | 'text' | 'partName' | 'sectionName' | 'imageUrl' | 'imageAlt'>;
  language: { code: string; rightToLeft: boolean };
}

export interface FirstScreen {
  title: string;
  author: string;
  primary: FirstScreenColumn;
  /** The second column of a two-column address: shown from wide screens up, as the app does. */
  secondary: FirstScreenColumn | null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

function column({ passage, language }: FirstScreenColumn, extraClass: string): string {
  const header = sectionHeader(passage.partName, passage.sectionName);
  const image = passage.imageUrl
    ? `<figure class="mt-10 flex justify-center"><img src="${escapeHtml(passage.imageUrl)}" alt="${escapeHtml(passage.imageAlt ?? '')}" class="max-h-[400px] w-full max-w-[400px] rounded-2xl bg-surface object-contain"></figure>`
    : '';
  return (
    `<section class="min-w-0 ${extraClass}"><div class="${COLUMN_CONTROLS_CLASS}"><div class="h-10"></div></div>` +
    `<article lang="${escapeHtml(language.code)}" dir="${language.rightToLeft ? 'rtl' : 'ltr'}" class="py-2">` +
    (header ? `<p class="${SECTION_HEADER_CLASS}">${escapeHtml(header)}</p>` : '') +
    `<div class="relative"><p class="${PASSAGE_NUMBER_CLASS} ${PASSAGE_NUMBER_BESIDE_CLASS}" aria-hidden="true">${passage.position}</p>` +
    `<div data-first-screen-text="" class="${PASSAGE_TEXT_CLASS} ${FONT_SIZE_CLASSES.default}">${sanitizePassageHtml(passage.text)}</div></div>` +
    `${image}</article></section>`
  );
}

/** The first screen's HTML; it goes right before the app's root element. */
export function firstScreenHtml(screen: FirstScreen): string {
  const frame = screen.secondary ? FIRST_SCREEN_TWO_COLUMNS_CLASS : `${ONE_COLUMN_CLASS} ${ONE_COLUMN_WIDTH.text}`;
  const columns = column(screen.primary, '') + (screen.secondary ? column(screen.secondary, 'hidden lg:block') : '');
  return (
    `<div id="${FIRST_SCREEN_ID}" class="flex min-h-screen flex-col bg-paper">` +
    `<header class="${READER_HEADER_CLASS}"><div class="${READER_HEADER_ROW_CLASS}"><div class="min-w-0">` +
    `<h1 class="${READER_TITLE_CLASS}">${escapeHtml(screen.title)}</h1><p class="${READER_AUTHOR_CLASS}">${escapeHtml(screen.author)}</p>` +
    `</div><div class="size-10 shrink-0"></div></div></header>` +
    `<div class="border-b border-line bg-paper"><div class="${TOOLBAR_ROW_CLASS}"><div class="h-10"></div></div></div>` +
    `<main class="flex-1 pb-28"><div class="${frame}">${columns}</div></main></div>`
  );
}
