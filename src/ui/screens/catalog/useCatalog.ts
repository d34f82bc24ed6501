/**
 * The Free Library's state, gathered in one place so the view only renders and calls commands.
 * The address holds search, p and the Language and Level filters, languages and levels (SPEC §2); the sort and a
 * teacher's filter last for the tab. Every rule is a
 * call into src/domain/catalog.ts. The Classroom Library runs on the same model with its own path and viewer.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import {
  buildCatalogQuery,
  clampPage,
  correctedPage,
  digitsOnly,
  filterParams,
  hasFilters,
  pageList,
  pageNavigation,
  parseCatalogQuery,
  parsePageInput,
  toSortKey,
  totalPages,
  withFilters,
  withSearch,
  type CatalogQuery,
} from '../../../domain/catalog';
import type { LanguageCode } from '../../../domain/languages';
import type { Level } from '../../../domain/levels';
import { PAGE_INPUT_DEBOUNCE_MS, PAGE_SIZE, SEARCH_DEBOUNCE_MS, SKELETON_CARDS } from '../../../domain/constants';
import type { PublicationSummary } from '../../../domain/schemas';
import { CATALOG_FILTERS, type CatalogFilter } from '../../../domain/wireValues';
import type { ListViewer } from '../../../api';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { useLatest } from '../../hooks/useLatest';
import { queries } from '../../platform/api';
import { sessionStore } from '../../platform/storage';
import { paths, withQuery } from '../../../domain/routes';

const SORT_STORAGE_KEY = 'catalogSort';
const FILTER_STORAGE_KEY = 'catalogFilter';

export type CatalogStatus = 'loading' | 'error' | 'empty' | 'ready';

export interface CatalogOptions {
  /** The screen's address, kept with search and p. @default '/catalog' */
  path?: string;
  /**
   * Offer the teacher-only filter (all, assigned, unassigned; SPEC §2 Catalog), for this signed-in teacher's id.
   * Without it no filter is sent.
   */
  teacherId?: string | null;
  /** A fixed filter (the teacher's Classroom Library lists `assigned`). */
  fixedFilter?: CatalogFilter;
  /** Whose list this is, when the answer is personal (a class code; a teacher). */
  viewer?: ListViewer;
  /** Wait (show loading) until the viewer is known. @default true */
  enabled?: boolean;
}

function toFilter(value: string | null): CatalogFilter {
  return (CATALOG_FILTERS as readonly string[]).includes(value ?? '') ? (value as CatalogFilter) : 'all';
}

/** A choice kept in session storage (the sort, a teacher's filter): its value, and a setter that also calls `onChange`. */
function useSessionChoice<T extends string>(key: string, parse: (stored: string | null) => T, onChange: () => void) {
  const [value, setValue] = useState<T>(() => parse(sessionStore.get(key)));
  const choose = useCallback(
    (next: T) => {
      setValue(next);
      sessionStore.set(key, next);
      onChange();
    },
    [key, onChange],
  );
  return [value, choose] as const;
}

export function useCatalog(options: CatalogOptions = {}) {
  const { path = paths.catalog, teacherId = null, fixedFilter, viewer, enabled = true } = options;
  const queryString = useSearch();
  const [, navigate] = useLocation();
  const query = parseCatalogQuery(queryString);
  const queryRef = useLatest({ query, queryString });

  /** Move to a new catalog state, replacing the history entry (SPEC: the address is kept in step). */
  const go = useCallback(
    (next: CatalogQuery) => {
      navigate(withQuery(path, buildCatalogQuery(next, queryRef.current.queryString)), { replace: true });
    },
    [navigate, queryRef, path],
  );

  /** Choosing a sort or a filter anew goes back to page 1 (SPEC §4). */
  const toFirstPage = useCallback(() => {
    const { query: current } = queryRef.current;
    if (current.page !== 1) go({ ...current, page: 1 });
  }, [go, queryRef]);

  // ---- sort ----
  const [sort, setSort] = useSessionChoice(SORT_STORAGE_KEY, toSortKey, toFirstPage);

  // ---- a teacher's filter (SPEC §2 Catalog) ----
  const [storedFilter, setFilter] = useSessionChoice(FILTER_STORAGE_KEY, toFilter, toFirstPage);
  const filter: CatalogFilter = fixedFilter ?? (teacherId ? storedFilter : 'all');

  // ---- the list ----
  const filtered = filter !== 'all';
  const listViewer = viewer ?? (filtered && teacherId ? { userId: teacherId } : undefined);
  const list = useQuery({
    ...queries.publications(
      {
        search: query.search || undefined,
        sort,
        page: query.page,
        pageSize: PAGE_SIZE,
        filter: filtered ? filter : undefined,
        ...filterParams(query),
      },
      listViewer,
    ),
    enabled,
  });
  const data = list.data;
  const pageSize = data?.pageSize ?? PAGE_SIZE;
  const pageCount = data ? totalPages(data.total, pageSize) : Math.max(1, query.page);
  const fix = data && !list.isPlaceholderData ? correctedPage(query.page, data.total, pageSize) : null;

  // A page past the end is clamped and the address fixed (SPEC §4).
  useEffect(() => {
    if (fix !== null) go({ ...queryRef.current.query, page: fix });
  }, [fix, go, queryRef]);

  const page = data ? clampPage(query.page, pageCount) : query.page;

  // ---- search text, debounced into the address ----
  const [searchText, setSearchText] = useState(query.search);
  const lastSearch = useRef(query.search);
  useEffect(() => {
    // The address changed from outside (back/forward, a link): show its search.
    if (query.search !== lastSearch.current) {
      lastSearch.current = query.search;
      setSearchText(query.search);
    }
  }, [query.search]);

  const applySearch = useCallback(
    (text: string) => {
      const next = withSearch(queryRef.current.query, text);
      if (!next) return;
      lastSearch.current = next.search;
      go(next);
    },
    [go, queryRef],
  );

  const debouncedSearch = useDebouncedValue(searchText, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    applySearch(debouncedSearch);
  }, [debouncedSearch, applySearch]);

  // ---- typed page input: digits only, applied after a pause, only when 1..pageCount (SPEC §5) ----
  const [pageText, setPageTextState] = useState(String(page));
  const pageTextTyped = useRef(false);
  useEffect(() => {
    pageTextTyped.current = false;
    setPageTextState(String(page));
  }, [page]);
  const setPageText = useCallback((text: string) => {
    pageTextTyped.current = true;
    setPageTextState(digitsOnly(text));
  }, []);
  const debouncedPageText = useDebouncedValue(pageText, PAGE_INPUT_DEBOUNCE_MS);
  const pageCountRef = useLatest(pageCount);
  useEffect(() => {
    if (!pageTextTyped.current) return;
    const typed = parsePageInput(debouncedPageText, pageCountRef.current);
    const { query: current } = queryRef.current;
    if (typed !== null && typed !== current.page) go({ ...current, page: typed });
  }, [debouncedPageText, go, queryRef, pageCountRef]);

  // ---- the Language and Level filters (SPEC §2 languages, levels): in the address, back to page 1 on a change ----
  const applyFilters = useCallback(
    (change: Pick<CatalogQuery, 'languages' | 'levels'>) => {
      const next = withFilters(queryRef.current.query, change);
      if (next) go(next);
    },
    [go, queryRef],
  );
  const setLanguages = useCallback((languages: readonly LanguageCode[]) => applyFilters({ languages }), [applyFilters]);
  const setLevels = useCallback((levels: readonly Level[]) => applyFilters({ levels }), [applyFilters]);

  const goToPage = useCallback(
    (target: number) => {
      const { query: current } = queryRef.current;
      const next = clampPage(target, pageCount);
      if (next !== current.page) go({ ...current, page: next });
    },
    [go, pageCount, queryRef],
  );

  // ---- what the view shows ----
  const items: PublicationSummary[] = data?.items ?? [];
  let status: CatalogStatus;
  if (list.isError) status = 'error';
  else if (!data || fix !== null) status = 'loading';
  else if (items.length === 0) status = 'empty';
  else status = 'ready';

  const navigation = pageNavigation(page, pageCount);

  return {
    status,
    items,
    total: data?.total ?? 0,
    skeletonCount: SKELETON_CARDS,
    /** True while a new page, search or sort loads over the previous results. */
    isRefreshing: list.isFetching && list.isPlaceholderData,
    errorMessage: list.error?.message ?? null,
    retry: () => void list.refetch(),

    searchText,
    setSearchText,
    /** Apply the search now (Enter), without waiting for the debounce. */
    submitSearch: () => applySearch(searchText),
    clearSearch: () => {
      setSearchText('');
      applySearch('');
    },
    activeSearch: query.search,

    sort,
    setSort,

    /** The Language and Level filters of the address (for everyone). */
    languages: query.languages,
    levels: query.levels,
    setLanguages,
    setLevels,
    hasActiveFilters: hasFilters(query),
    clearFilters: () => applyFilters({ languages: [], levels: [] }),

    /** Whether the teacher-only filter is offered. */
    hasFilter: teacherId !== null && fixedFilter === undefined,
    filter,
    setFilter,

    page,
    pageCount,
    pages: pageList(page, pageCount),
    hasPrevious: navigation.hasPrevious,
    hasNext: navigation.hasNext,
    goToPage,
    goToPrevious: () => goToPage(page - 1),
    goToNext: () => goToPage(page + 1),
    pageText,
    setPageText,
    /** The typed page cannot be applied (out of range), shown as a hint. */
    isPageTextInvalid: pageText !== '' && parsePageInput(pageText, pageCount) === null,
    resetPageText: () => {
      pageTextTyped.current = false;
      setPageTextState(String(page));
    },
  };
}

export type CatalogModel = ReturnType<typeof useCatalog>;
