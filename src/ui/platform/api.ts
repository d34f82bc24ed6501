/** The app's singletons: the API client (base '/api/v1', same origin), its query options and the query client. */
import { QueryClient } from '@tanstack/react-query';
import { API_PREFIX, createApiClient, createPrimedResponses, createQueries, NO_PRIMED_RESPONSES, type PrimedResponses } from '../../api';
import { PRIMED_ELEMENT_ID } from '../../domain/primed';
import { readStoredClassCode } from './storedClassCode';
import { getOrCreateClientId } from './clientId';
import { localStore } from './storage';

let clientId: string | undefined;

/** The answers the server inlined into this page (server/http/page.ts), or none. */
function pagePrimedResponses(): PrimedResponses {
  const text = typeof document === 'undefined' ? null : document.getElementById(PRIMED_ELEMENT_ID)?.textContent;
  if (!text) return NO_PRIMED_RESPONSES;
  try {
    const bodies: unknown = JSON.parse(text);
    return bodies && typeof bodies === 'object' ? createPrimedResponses(bodies as Record<string, unknown>) : NO_PRIMED_RESPONSES;
  } catch {
    return NO_PRIMED_RESPONSES;
  }
}

const sameClient = {
  baseUrl: API_PREFIX,
  clientId: () => (clientId ??= getOrCreateClientId(localStore)),
  // The accepted class code goes with every request (SPEC §7), so a student's passages and titles are gated by it.
  groupCode: () => readStoredClassCode(),
};

export const api = createApiClient({ ...sameClient, primed: pagePrimedResponses() });

/**
 * A client that asks exactly as the app's does (the same addresses, headers and class code) through another
 * fetch: the offline download (src/ui/offline/download.ts) stores what it answers, for the service worker to serve.
 */
export function createApiClientWithFetch(fetchImpl: typeof fetch) {
  return createApiClient({ ...sameClient, fetch: fetchImpl });
}

export const queries = createQueries(api);

/** No retries and no refetch on focus (SPEC §7: queries and mutations are not retried). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
