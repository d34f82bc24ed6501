/** TanStack Query keys and options for each endpoint. No retries (SPEC §7). */
import { queryOptions, keepPreviousData } from '@tanstack/react-query';
import type { ApiClient } from './client';
import type { PublicationListQuery } from '../domain/schemas';

export const queryKeys = {
  ping: () => ['ping'] as const,
  publications: (query: PublicationListQuery) => ['publications', query] as const,
  publication: (slug: string, version?: string) => ['publication', slug, version ?? null] as const,
  excerpt: (slug: string, params: Record<string, unknown>) => ['excerpt', slug, params] as const,
  passage: (editionId: number, position: number) => ['passage', editionId, position] as const,
  qr: (code: string) => ['qr', code] as const,
};

/** Published content does not change within a version; keep it fresh for a while. */
export const CONTENT_STALE_TIME_MS = 5 * 60_000;

export function createQueries(api: ApiClient) {
  return {
    ping: () => queryOptions({ queryKey: queryKeys.ping(), queryFn: ({ signal }) => api.ping({ signal }), retry: false }),
    publications: (query: PublicationListQuery) =>
      queryOptions({
        queryKey: queryKeys.publications(query),
        queryFn: ({ signal }) => api.listPublications(query, { signal }),
        placeholderData: keepPreviousData,
        staleTime: CONTENT_STALE_TIME_MS,
        retry: false,
      }),
    publication: (slug: string, version?: string) =>
      queryOptions({
        queryKey: queryKeys.publication(slug, version),
        queryFn: ({ signal }) => api.getPublication(slug, version, { signal }),
        staleTime: CONTENT_STALE_TIME_MS,
        retry: false,
      }),
    excerpt: (slug: string, params: { publicationVersion?: string; language?: string; level?: string; position?: number }) =>
      queryOptions({
        queryKey: queryKeys.excerpt(slug, params),
        queryFn: ({ signal }) => api.getExcerpt(slug, params, { signal }),
        staleTime: CONTENT_STALE_TIME_MS,
        retry: false,
      }),
    passage: (editionId: number, position: number) =>
      queryOptions({
        queryKey: queryKeys.passage(editionId, position),
        queryFn: ({ signal }) => api.getPassage(editionId, position, { signal }),
        staleTime: CONTENT_STALE_TIME_MS,
        retry: false,
      }),
    qr: (code: string) =>
      queryOptions({ queryKey: queryKeys.qr(code), queryFn: ({ signal }) => api.getQrTarget(code, { signal }), retry: false }),
  };
}

export type Queries = ReturnType<typeof createQueries>;
