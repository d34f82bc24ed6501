/** The app's singletons: the API client (base '/api/v1', same origin), its query options and the query client. */
import { QueryClient } from '@tanstack/react-query';
import { API_PREFIX, createApiClient, createPrimedResponses, createQueries, NO_PRIMED_RESPONSES, type PrimedResponses } from '../../api';
import { PRIMED_ELEMENT_ID } from '../../domain/primed';
import { readStoredClassCode } from './storedClassCode';
import { getOrCreateClientId } from './clientId';
import { localStore, sessionStore } from './storage';

let clientId: string | undefined;

/** Set for this tab's next load when a primed answer did not match its schema: that load uses none. */
const WITHOUT_PRIMED_KEY = 'withoutPrimedAnswers';

/** The answers the server inlined into this page (server/http/page.ts), or none. */
function pagePrimedResponses(): PrimedResponses {
  if (sessionStore.get(WITHOUT_PRIMED_KEY)) {
    sessionStore.remove(WITHOUT_PRIMED_KEY);
    return NO_PRIMED_RESPONSES;
  }
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

/**
 * A primed answer is used before it is checked (src/api/client.ts `primedAnswer`). Should one not match its schema
 * (a server that drifted from the contract), the page loads again, once, without primed answers: every answer is then
 * asked for and validated before it is used, and a bad one shows as the error it is. Only when this tab can remember
 * that across the load; otherwise it would load again and again, and the page stays as it is.
 */
function primedMismatch(path: string, error: unknown): void {
  console.error(`The primed answer for ${path} does not match its schema; loading the page again without primed answers`, error);
  if (sessionStore.set(WITHOUT_PRIMED_KEY, '1')) window.location.reload();
}

export const api = createApiClient({ ...sameClient, primed: pagePrimedResponses(), onPrimedMismatch: primedMismatch });

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
