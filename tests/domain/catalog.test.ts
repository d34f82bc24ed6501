import { describe, expect, it } from 'vitest';
import {
  buildCatalogQuery,
  catalogHref,
  clampPage,
  correctedPage,
  digitsOnly,
  filterParams,
  hasFilters,
  isSortKey,
  pageList,
  pageNavigation,
  parseCatalogQuery,
  parsePageInput,
  parsePageParam,
  SORT_OPTIONS,
  sortLabel,
  toSortKey,
  totalPages,
  withFilters,
  withSearch,
  type PageListItem,
} from '../../src/domain/catalog';
import { SORT_KEYS } from '../../src/domain/schemas';

/** Render a page list as a compact string, e.g. '1 … 4 [5] 6 … 10'. */
function show(items: PageListItem[]): string {
  return items.map((i) => (i.type === 'ellipsis' ? '…' : i.isCurrent ? `[${i.page}]` : String(i.page))).join(' ');
}

describe('totalPages', () => {
  it('divides and rounds up', () => {
    expect(totalPages(16, 16)).toBe(1);
    expect(totalPages(17, 16)).toBe(2);
    expect(totalPages(32, 16)).toBe(2);
    expect(totalPages(33, 16)).toBe(3);
    expect(totalPages(1, 16)).toBe(1);
  });
  it('gives one page for an empty list and for nonsense input', () => {
    expect(totalPages(0, 16)).toBe(1);
    expect(totalPages(-5, 16)).toBe(1);
    expect(totalPages(10, 0)).toBe(1);
    expect(totalPages(Number.NaN, 16)).toBe(1);
  });
});

describe('clampPage', () => {
  it('keeps pages in range', () => {
    expect(clampPage(3, 5)).toBe(3);
    expect(clampPage(1, 5)).toBe(1);
    expect(clampPage(5, 5)).toBe(5);
  });
  it('clamps past the end to the last page', () => {
    expect(clampPage(99, 4)).toBe(4);
    expect(clampPage(2, 1)).toBe(1);
  });
  it('clamps below 1 and non-numbers to 1', () => {
    expect(clampPage(0, 4)).toBe(1);
    expect(clampPage(-3, 4)).toBe(1);
    expect(clampPage(Number.NaN, 4)).toBe(1);
  });
  it('floors fractions and treats a zero page count as one page', () => {
    expect(clampPage(2.7, 4)).toBe(2);
    expect(clampPage(3, 0)).toBe(1);
  });
});

describe('page input', () => {
  it('keeps digits only', () => {
    expect(digitsOnly('1a2')).toBe('12');
    expect(digitsOnly(' 3 ')).toBe('3');
    expect(digitsOnly('-4.5')).toBe('45');
    expect(digitsOnly('abc')).toBe('');
  });
  it('accepts 1..total', () => {
    expect(parsePageInput('1', 5)).toBe(1);
    expect(parsePageInput('5', 5)).toBe(5);
    expect(parsePageInput(' 3 ', 5)).toBe(3);
    expect(parsePageInput('03', 5)).toBe(3);
  });
  it('rejects out of range, empty and non-digit input', () => {
    expect(parsePageInput('0', 5)).toBeNull();
    expect(parsePageInput('6', 5)).toBeNull();
    expect(parsePageInput('', 5)).toBeNull();
    expect(parsePageInput('2a', 5)).toBeNull();
    expect(parsePageInput('-1', 5)).toBeNull();
    expect(parsePageInput('1.5', 5)).toBeNull();
    expect(parsePageInput('1e1', 20)).toBeNull();
    expect(parsePageInput('99999999999999999999', 5)).toBeNull();
  });
});

describe('pageList', () => {
  it('lists every page when there are few', () => {
    expect(show(pageList(1, 1))).toBe('[1]');
    expect(show(pageList(2, 3))).toBe('1 [2] 3');
    expect(show(pageList(1, 5))).toBe('[1] 2 … 5');
  });
  it('shows ellipses for gaps of two or more pages', () => {
    expect(show(pageList(5, 10))).toBe('1 … 4 [5] 6 … 10');
    expect(show(pageList(1, 10))).toBe('[1] 2 … 10');
    expect(show(pageList(10, 10))).toBe('1 … 9 [10]');
  });
  it('shows the page itself instead of an ellipsis for a one-page gap', () => {
    expect(show(pageList(4, 10))).toBe('1 2 3 [4] 5 … 10');
    expect(show(pageList(7, 10))).toBe('1 … 6 [7] 8 9 10');
    expect(show(pageList(3, 5))).toBe('1 2 [3] 4 5');
  });
  it('marks exactly one current page, clamped into range', () => {
    const items = pageList(99, 6);
    expect(items.filter((i) => i.type === 'page' && i.isCurrent)).toEqual([{ type: 'page', page: 6, isCurrent: true }]);
  });
  it('honours a wider sibling count', () => {
    expect(show(pageList(6, 12, 2))).toBe('1 … 4 5 [6] 7 8 … 12');
  });
  it('gives ellipses distinct keys', () => {
    const keys = pageList(5, 10).flatMap((i) => (i.type === 'ellipsis' ? [i.key] : []));
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });
});

describe('catalog query', () => {
  it('parses search and p', () => {
    expect(parseCatalogQuery('?search=bee&p=2')).toEqual({ search: 'bee', page: 2, languages: [], levels: [] });
    expect(parseCatalogQuery('search=%20fox%20stars%20')).toEqual({ search: 'fox stars', page: 1, languages: [], levels: [] });
    expect(parseCatalogQuery('')).toEqual({ search: '', page: 1, languages: [], levels: [] });
  });
  it('reads a bad p as page 1', () => {
    expect(parsePageParam('0')).toBe(1);
    expect(parsePageParam('-2')).toBe(1);
    expect(parsePageParam('abc')).toBe(1);
    expect(parsePageParam('2.5')).toBe(1);
    expect(parsePageParam(null)).toBe(1);
    expect(parsePageParam('99')).toBe(99);
  });
  it('builds search and p, leaving out the defaults', () => {
    expect(buildCatalogQuery({ search: 'bee', page: 1 })).toBe('search=bee');
    expect(buildCatalogQuery({ search: '', page: 3 })).toBe('p=3');
    expect(buildCatalogQuery({ search: '', page: 1 })).toBe('');
    expect(buildCatalogQuery({ search: ' two words ', page: 2 })).toBe('search=two+words&p=2');
  });
  it('keeps other parameters and replaces its own', () => {
    expect(buildCatalogQuery({ search: 'fox', page: 1 }, 'groupCode=ABCD1234&search=bee&p=4')).toBe('groupCode=ABCD1234&search=fox');
  });
  it('round-trips', () => {
    const state = { search: 'paper moon', page: 7, languages: [], levels: [] };
    expect(parseCatalogQuery(buildCatalogQuery(state))).toEqual(state);
    const filtered = { search: 'moon', page: 2, languages: ['es', 'ar'] as const, levels: ['SILVER', 'ORIGINAL'] as const };
    expect(parseCatalogQuery(buildCatalogQuery(filtered))).toEqual({ ...filtered, languages: ['es', 'ar'], levels: ['SILVER', 'ORIGINAL'] });
  });
  it('builds the catalog href', () => {
    expect(catalogHref({ search: '', page: 1 })).toBe('/catalog');
    expect(catalogHref({ search: 'bee', page: 2 })).toBe('/catalog?search=bee&p=2');
  });
});

describe('Language and Level filters in the address (SPEC §2 languages, levels)', () => {
  it('reads comma-separated lists in any case, in the spec order, without duplicates', () => {
    expect(parseCatalogQuery('languages=ES,ar,es&levels=original,gold')).toMatchObject({ languages: ['es', 'ar'], levels: ['GOLD', 'ORIGINAL'] });
    expect(parseCatalogQuery('languages=ar%2Ces')).toMatchObject({ languages: ['es', 'ar'] });
  });
  it('also reads a repeated parameter', () => {
    expect(parseCatalogQuery('languages=zh&languages=en&levels=SILVER&levels=GOLD')).toMatchObject({ languages: ['en', 'zh'], levels: ['SILVER', 'GOLD'] });
  });
  it('ignores unknown values and empty items, as a bad page is ignored', () => {
    expect(parseCatalogQuery('languages=fr,,es,klingon&levels=PLATINUM,,silver,1')).toMatchObject({ languages: ['es'], levels: ['SILVER'] });
    expect(parseCatalogQuery('languages=&levels=')).toMatchObject({ languages: [], levels: [] });
    expect(parseCatalogQuery('languages=fr&levels=bronze')).toMatchObject({ languages: [], levels: [] });
  });
  it('writes them canonical and readable (commas, lower-case languages, upper-case levels), leaving out empty ones', () => {
    expect(buildCatalogQuery({ search: '', page: 1, languages: ['ar', 'es'], levels: ['GOLD', 'SILVER'] })).toBe('languages=es,ar&levels=SILVER,GOLD');
    expect(buildCatalogQuery({ search: 'bee', page: 2, languages: ['en'], levels: [] })).toBe('search=bee&p=2&languages=en');
    expect(buildCatalogQuery({ search: '', page: 1, languages: [], levels: [] }, 'languages=es&levels=GOLD&groupCode=ABCD1234')).toBe('groupCode=ABCD1234');
    expect(catalogHref({ search: '', page: 1, levels: ['ORIGINAL'] })).toBe('/catalog?levels=ORIGINAL');
  });
  it('gives the API parameters, the same for the same choice in any order', () => {
    expect(filterParams({ languages: ['ar', 'es'], levels: ['ORIGINAL', 'GOLD'] })).toEqual({ languages: 'es,ar', levels: 'GOLD,ORIGINAL' });
    expect(filterParams({ languages: ['es', 'ar'], levels: ['GOLD', 'ORIGINAL'] })).toEqual({ languages: 'es,ar', levels: 'GOLD,ORIGINAL' });
    expect(filterParams({ languages: [], levels: [] })).toEqual({});
    expect(filterParams({})).toEqual({});
  });
  it('knows whether a filter is chosen', () => {
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ languages: [], levels: [] })).toBe(false);
    expect(hasFilters({ levels: ['GOLD'] })).toBe(true);
    expect(hasFilters({ languages: ['es'] })).toBe(true);
  });
});

describe('state changes', () => {
  it('choosing languages or levels goes back to page 1 and keeps the search', () => {
    expect(withFilters({ search: 'moon', page: 3 }, { levels: ['GOLD'] })).toEqual({ search: 'moon', page: 1, languages: [], levels: ['GOLD'] });
    expect(withFilters({ search: '', page: 2, levels: ['GOLD'] }, { languages: ['es'] })).toEqual({ search: '', page: 1, languages: ['es'], levels: ['GOLD'] });
    expect(withFilters({ search: '', page: 4, languages: ['es'], levels: ['GOLD'] }, { languages: [], levels: [] })).toEqual({ search: '', page: 1, languages: [], levels: [] });
  });
  it('the same choice, in any order, changes nothing', () => {
    expect(withFilters({ search: '', page: 3, languages: ['es', 'ar'] }, { languages: ['ar', 'es'] })).toBeNull();
    expect(withFilters({ search: '', page: 3 }, { levels: [] })).toBeNull();
  });
  it('a new search keeps the filters', () => {
    expect(withSearch({ search: 'bee', page: 3, languages: ['es'], levels: [] }, 'fox')).toEqual({ search: 'fox', page: 1, languages: ['es'], levels: [] });
  });
  it('a new search goes back to page 1', () => {
    expect(withSearch({ search: 'bee', page: 3 }, 'fox')).toEqual({ search: 'fox', page: 1 });
    expect(withSearch({ search: 'bee', page: 3 }, '')).toEqual({ search: '', page: 1 });
  });
  it('the same search after trimming changes nothing', () => {
    expect(withSearch({ search: 'bee', page: 3 }, ' bee ')).toBeNull();
  });
  it('corrects a page past the end and leaves a valid page alone', () => {
    expect(correctedPage(99, 20, 16)).toBe(2);
    expect(correctedPage(99, 0, 16)).toBe(1);
    expect(correctedPage(2, 20, 16)).toBeNull();
    expect(correctedPage(1, 0, 16)).toBeNull();
  });
  it('knows when previous and next are possible', () => {
    expect(pageNavigation(1, 1)).toEqual({ hasPrevious: false, hasNext: false });
    expect(pageNavigation(1, 3)).toEqual({ hasPrevious: false, hasNext: true });
    expect(pageNavigation(2, 3)).toEqual({ hasPrevious: true, hasNext: true });
    expect(pageNavigation(3, 3)).toEqual({ hasPrevious: true, hasNext: false });
  });
});

describe('sort options', () => {
  it('offers every sort key once, title A–Z first', () => {
    expect(SORT_OPTIONS.map((o) => o.key).sort()).toEqual([...SORT_KEYS].sort());
    expect(SORT_OPTIONS[0].key).toBe('title_a_z');
    expect(SORT_OPTIONS.map((o) => o.label)).toEqual(['Title A–Z', 'Title Z–A', 'Author A–Z', 'Author Z–A', 'Most Recent']);
  });
  it('validates sort keys and falls back to the default', () => {
    expect(isSortKey('title_z_a')).toBe(true);
    expect(isSortKey('price')).toBe(false);
    expect(toSortKey('most_recent')).toBe('most_recent');
    expect(toSortKey('nope')).toBe('title_a_z');
    expect(toSortKey(undefined)).toBe('title_a_z');
    expect(sortLabel('author_z_a')).toBe('Author Z–A');
  });
});
