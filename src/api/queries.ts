/** TanStack Query options for each endpoint, with their keys from `queryKeys.ts`. No retries (SPEC §7). */
import { queryOptions, keepPreviousData, mutationOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';
import type { PublicationListQuery, TitleStatus } from '../domain/schemas';
import { mutationKeys, queryKeys, type ListViewer } from './queryKeys';

export * from './queryKeys';

/** Published content does not change within a version; keep it fresh for a while. */
export const CONTENT_STALE_TIME_MS = 5 * 60_000;

export function createQueries(api: ApiClient) {
  return {
    ping: () => queryOptions({ queryKey: queryKeys.ping(), queryFn: ({ signal }) => api.ping({ signal }), retry: false }),
    /**
     * A page of the catalog. With a viewer (a teacher's filter, a class code) the answer is personal: it is keyed
     * by the viewer and kept fresh for less time, since the teacher's curation changes it.
     */
    publications: (query: PublicationListQuery, viewer?: ListViewer) =>
      queryOptions({
        queryKey: queryKeys.publications(query, viewer),
        queryFn: ({ signal }) => api.listPublications(query, { signal, groupCode: viewer?.groupCode }),
        placeholderData: keepPreviousData,
        staleTime: viewer ? 0 : CONTENT_STALE_TIME_MS,
        retry: false,
      }),
    /** SPEC §7 GET /users/titles: the signed-in teacher's statuses, or the ASSIGNED titles of a class code. */
    userTitles: (viewer: ListViewer) =>
      queryOptions({
        queryKey: queryKeys.userTitles(viewer),
        queryFn: ({ signal }) => api.getUserTitles({ signal, groupCode: viewer.groupCode }),
        retry: false,
      }),
    /**
     * GET /users/me/class-activity: the teacher's class activity, keyed by the teacher. Counts move as
     * the class reads, so it is fetched again on every visit (staleTime 0) and not kept long after.
     */
    classActivity: (userId: string) =>
      queryOptions({
        queryKey: queryKeys.classActivity(userId),
        queryFn: ({ signal }) => api.getClassActivity({ signal }),
        staleTime: 0,
        gcTime: 60_000,
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

/** Mutation options (SPEC §7: mutations are not retried). */
export function createMutations(api: ApiClient) {
  return {
    /** PATCH /users/titles/{titleId}/visibility; the caller refreshes the user titles on success (SPEC §4). */
    setTitleVisibility: () =>
      mutationOptions({
        mutationKey: mutationKeys.setTitleVisibilityAll(),
        mutationFn: ({ titleId, status }: { titleId: number; status: TitleStatus }) => api.setTitleVisibility(titleId, status),
        retry: false,
      }),
    /** POST /users/me/group-code: a new class code for the teacher (the old one stops working). */
    rotateGroupCode: () =>
      mutationOptions({ mutationKey: mutationKeys.rotateGroupCode(), mutationFn: () => api.rotateGroupCode(), retry: false }),
  };
}

export type Mutations = ReturnType<typeof createMutations>;
