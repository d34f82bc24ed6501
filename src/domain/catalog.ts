/**
 * Catalog rules (SPEC §2 Catalog, §4 Catalog, §5 Catalog page input). Pure functions with no framework and no
 * DOM: the catalog view calls these and renders what they return.
 */
import { wholeNumberOf } from './digits';
import { isLanguageCode, LANGUAGE_CODES, type LanguageCode } from './languages';
import { isLevel, LEVEL_ORDER, type Level } from './levels';
import { paths, withQuery } from './routes';
import { DEFAULT_SORT, SORT_KEYS, type SortKey } from './wireValues';

/** The query-string keys the catalog keeps in step with its state (SPEC §2 Query parameters). */
export const CATALOG_SEARCH_PARAM = 'search';
export const CATALOG_PAGE_PARAM = 'p';
/** The Language filter: comma-separated language codes, lower case, e.g. 'languages=ar,es'. */
export const CATALOG_LANGUAGES_PARAM = 'languages';
/** The Level filter: comma-separated levels, upper case, e.g. 'levels=SILVER,GOLD'. */
export const CATALOG_LEVELS_PARAM = 'levels';

/** The catalog state that lives in the address. */
export interface CatalogQuery {
  /** The search text, trimmed. '' when there is none. @default '' */
  search: string;
  /** The requested page, 1-based. Not yet clamped to the last page. @default 1 */
  page: number;
  /**
   * The Language filter: titles with an edition in one of these languages (with the Level filter, one edition must
   * be in a chosen language and at a chosen level). In the spec's language order, no duplicates. @default []
   */
  languages?: readonly LanguageCode[];
  /** The Level filter: titles with an edition at one of these levels. Easiest first, no duplicates. @default [] */
  levels?: readonly Level[];
}

/** Number of pages for `total` items at `pageSize` per page. Never less than 1, so an empty list has one (empty) page. */
export function totalPages(total: number, pageSize: number): number {
  if (!Number.isFinite(total) || !Number.isFinite(pageSize) || pageSize < 1 || total <= 0) return 1;
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Clamp a page number to 1..pageCount. Fractions are floored; anything not a number becomes 1. */
export function clampPage(page: number, pageCount: number): number {
  const last = Math.max(1, Math.floor(Number.isFinite(pageCount) ? pageCount : 1));
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.floor(page)), last);
}

/** Keep only the digits of what was typed into the page input (SPEC §5: digits only). */
export { digitsOnly } from './digits';

/**
 * Parse the typed page input (SPEC §5): digits only, and only when 1 <= page <= pageCount.
 * Returns the page to go to, or null when the text must not be applied.
 */
export function parsePageInput(text: string, pageCount: number): number | null {
  const page = wholeNumberOf(text);
  if (page === null || !Number.isSafeInteger(page) || page < 1 || page > pageCount) return null;
  return page;
}

/** One entry of the numbered page list: a page number, or a gap shown as an ellipsis. */
export type PageListItem = { type: 'page'; page: number; isCurrent: boolean } | { type: 'ellipsis'; key: string };

/**
 * The numbered pages to show: always the first and last page, the current page with `siblings` pages either
 * side, and an ellipsis for each gap of two or more pages (a gap of one page shows that page instead).
 */
export function pageList(current: number, pageCount: number, siblings = 1): PageListItem[] {
  const last = Math.max(1, Math.floor(pageCount));
  const page = clampPage(current, last);
  const shown = new Set<number>([1, last]);
  for (let p = page - siblings; p <= page + siblings; p++) if (p >= 1 && p <= last) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const items: PageListItem[] = [];
  let previous = 0;
  for (const p of sorted) {
    if (p - previous === 2) items.push({ type: 'page', page: p - 1, isCurrent: p - 1 === page });
    else if (p - previous > 2) items.push({ type: 'ellipsis', key: `gap-${previous}-${p}` });
    items.push({ type: 'page', page: p, isCurrent: p === page });
    previous = p;
  }
  return items;
}

/** Parse a page number from the address: digits only and at least 1, otherwise page 1. */
export function parsePageParam(value: string | null | undefined): number {
  const page = value == null ? null : wholeNumberOf(value);
  return page !== null && Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/** The items of a comma-separated list parameter, given once ('a,b') or repeated ('a&…=b'), trimmed, empty ones dropped. */
function listItems(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((value) => value.split(','))
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * The Language filter of the address: known codes in any case, in the spec's order, without duplicates. An unknown
 * code is ignored, as a page that is not a number is (the spec names no error for a bad catalog address).
 */
export function parseLanguagesParam(values: readonly string[]): LanguageCode[] {
  const chosen = new Set(values.map((v) => v.toLowerCase()).filter(isLanguageCode));
  return LANGUAGE_CODES.filter((code) => chosen.has(code));
}

/** The Level filter of the address: known levels in any case ('gold' is GOLD), easiest first, unknown ones ignored. */
export function parseLevelsParam(values: readonly string[]): Level[] {
  const chosen = new Set(values.map((v) => v.toUpperCase()).filter(isLevel));
  return LEVEL_ORDER.filter((level) => chosen.has(level));
}

/** Read the catalog state from a query string (with or without the leading '?'). */
export function parseCatalogQuery(queryString: string): CatalogQuery & Required<Pick<CatalogQuery, 'languages' | 'levels'>> {
  const params = new URLSearchParams(queryString);
  return {
    search: (params.get(CATALOG_SEARCH_PARAM) ?? '').trim(),
    page: parsePageParam(params.get(CATALOG_PAGE_PARAM)),
    languages: parseLanguagesParam(listItems(params, CATALOG_LANGUAGES_PARAM)),
    levels: parseLevelsParam(listItems(params, CATALOG_LEVELS_PARAM)),
  };
}

/**
 * The filters as GET /publications takes them (and the address shows them): comma-separated, in their canonical
 * order, left out when nothing is chosen. The one form both the catalog's request and the server's primed answer
 * (server/http/page.ts) use, so the two keys agree.
 */
export function filterParams(query: Pick<CatalogQuery, 'languages' | 'levels'>): { languages?: string; levels?: string } {
  const languages = parseLanguagesParam(query.languages ?? []);
  const levels = parseLevelsParam(query.levels ?? []);
  return {
    ...(languages.length ? { languages: languages.join(',') } : {}),
    ...(levels.length ? { levels: levels.join(',') } : {}),
  };
}

/** Whether a Language or Level filter is chosen. */
export function hasFilters(query: Pick<CatalogQuery, 'languages' | 'levels'>): boolean {
  return (query.languages?.length ?? 0) > 0 || (query.levels?.length ?? 0) > 0;
}

/**
 * Write the catalog state into a query string (without the leading '?'), keeping any other parameters of
 * `current`. An empty search and page 1 are left out, so the plain catalog address stays '/catalog'.
 */
export function buildCatalogQuery(next: CatalogQuery, current = ''): string {
  const params = new URLSearchParams(current);
  const search = next.search.trim();
  if (search) params.set(CATALOG_SEARCH_PARAM, search);
  else params.delete(CATALOG_SEARCH_PARAM);
  const page = Number.isFinite(next.page) ? Math.max(1, Math.floor(next.page)) : 1;
  if (page > 1) params.set(CATALOG_PAGE_PARAM, String(page));
  else params.delete(CATALOG_PAGE_PARAM);
  const filters = filterParams(next);
  for (const name of [CATALOG_LANGUAGES_PARAM, CATALOG_LEVELS_PARAM] as const) {
    const value = filters[name];
    if (value) params.set(name, value);
    else params.delete(name);
  }
  // The lists read 'languages=ar,es', not 'ar%2Ces': a comma is allowed in a query, and reads back the same.
  return params.toString().replace(/%2C/gi, ',');
}

/** The catalog path for a state, e.g. '/catalog?search=bee&p=2'. */
export function catalogHref(next: CatalogQuery, current = ''): string {
  const query = buildCatalogQuery(next, current);
  return withQuery(paths.catalog, query);
}

/**
 * Changing the search moves back to page 1 (SPEC §4). Returns the new state, or null when the search text
 * is unchanged after trimming (so typing a trailing space does not reset the page).
 */
export function withSearch(state: CatalogQuery, search: string): CatalogQuery | null {
  const trimmed = search.trim();
  if (trimmed === state.search) return null;
  return { ...state, search: trimmed, page: 1 };
}

/**
 * Choosing languages or levels moves back to page 1, as a new search does. Returns the new state, or null when the
 * chosen sets are unchanged.
 */
export function withFilters(state: CatalogQuery, change: Pick<CatalogQuery, 'languages' | 'levels'>): CatalogQuery | null {
  const languages = parseLanguagesParam(change.languages ?? state.languages ?? []);
  const levels = parseLevelsParam(change.levels ?? state.levels ?? []);
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  if (same(languages, parseLanguagesParam(state.languages ?? [])) && same(levels, parseLevelsParam(state.levels ?? []))) return null;
  return { ...state, languages, levels, page: 1 };
}

/** The sort choices of the Filter / Sort menu, in menu order, with their labels. */
export const SORT_OPTIONS: readonly { key: SortKey; label: string }[] = [
  { key: 'title_a_z', label: 'Title A–Z' },
  { key: 'title_z_a', label: 'Title Z–A' },
  { key: 'author_a_z', label: 'Author A–Z' },
  { key: 'author_z_a', label: 'Author Z–A' },
  { key: 'most_recent', label: 'Most Recent' },
];

export function isSortKey(value: unknown): value is SortKey {
  return typeof value === 'string' && (SORT_KEYS as readonly string[]).includes(value);
}

/** Any value to a sort key, falling back to the default (title A–Z). */
export function toSortKey(value: unknown): SortKey {
  return isSortKey(value) ? value : DEFAULT_SORT;
}

export function sortLabel(key: SortKey): string {
  return SORT_OPTIONS.find((o) => o.key === key)?.label ?? key;
}

/** Whether previous and next are possible from `page` of `pageCount`. */
export function pageNavigation(page: number, pageCount: number): { hasPrevious: boolean; hasNext: boolean } {
  const current = clampPage(page, pageCount);
  return { hasPrevious: current > 1, hasNext: current < Math.max(1, pageCount) };
}

/**
 * After a list response: the page the address should show, or null when it is already right.
 * A page past the end is clamped to the last page (SPEC §4).
 */
export function correctedPage(requested: number, total: number, pageSize: number): number | null {
  const clamped = clampPage(requested, totalPages(total, pageSize));
  return clamped === requested ? null : clamped;
}
