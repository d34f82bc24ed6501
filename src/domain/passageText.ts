/**
 * How a reader passage is shown (SPEC §2 Reader screen): its text through a strict allow-list, its section
 * header, and the typed page number of the bottom bar.
 */
import { createAllowListFilter } from './allowListHtml';

/**
 * Passage text is our own HTML (paragraphs rendered from restricted Markdown, everything else escaped), and it is
 * still filtered before it reaches the page: only p, em, strong and br survive, without attributes. Other tags
 * are removed (their text stays), and script and style are removed with their content.
 */
const passageFilter = createAllowListFilter({
  tags: { p: null, em: null, strong: null, br: null },
  dropWithContent: ['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript'],
});

export function sanitizePassageHtml(html: string): string {
  return passageFilter(html).trim();
}

/** Part and section joined with ' // ', or null when neither is set (blank names are ignored). */
export function sectionHeader(partName: string | null | undefined, sectionName: string | null | undefined): string | null {
  const parts = [partName, sectionName].map((p) => p?.trim() ?? '').filter((p) => p !== '');
  return parts.length ? parts.join(' // ') : null;
}

/** What the page-number field keeps while typing: digits only. */
export function pageInputDigits(text: string): string {
  return text.replace(/\D+/g, '');
}

/** The typed page number when it is a positive integer, else null. Clamping to the edition is the session's job. */
export function parsePageInput(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= 1 ? n : null;
}
